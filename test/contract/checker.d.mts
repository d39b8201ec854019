// Types of checker.mjs for the TypeScript tests.
export interface ContractOperation {
  method: string;
  path: string;
  request: object | null;
  requestRequired?: boolean;
  requestTypes: string[];
  responses: Record<string, object | null>;
}
export interface Validator {
  (value: unknown): boolean;
  errors?: { instancePath: string; keyword: string; message?: string }[] | null;
}
export interface ContractRoute {
  name: string;
  method: string;
  path: string;
  responses: Record<string, Validator | null>;
  request: Validator | null;
}
export interface Contract {
  operations: Record<string, ContractOperation>;
  routes: ContractRoute[];
  find(method: string, path: string): ContractRoute | undefined;
}
export interface Violation {
  operation: string;
  method: string;
  path: string;
  status?: number;
  direction: 'request' | 'response';
  pointer: string;
  rule: string;
}
export function loadContract(root?: string): Contract;
export function applyOverlay(operations: Record<string, ContractOperation>, overlay: object): Record<string, ContractOperation>;
export function contractState(): { checked: number; requests: number; violations: Violation[]; byOperation: Record<string, number> };
export function checkExchange(contract: Contract, request: object, response?: { status: number; body: unknown }): Violation[];
export function describeViolation(violation: Violation): string;
export function writeReport(dir: string): void;
