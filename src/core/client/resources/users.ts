/** The account behind the token (service's "Discovery and account"). */
import type { Gateway } from '../gateway';
import { CurrentUserSchema, type CurrentUser } from '../schemas/discovery';
import type { CallOptions } from '../types';

/** Users: who is signed in. */
export class UsersApi {
  constructor(private readonly gateway: Gateway) {}

  /** The user the token belongs to (asked without `organization_id`). */
  current(opts?: CallOptions): Promise<CurrentUser> {
    const call = { operation: 'getCurrentUser', method: 'GET', path: '/v1/users/current_user/', schema: CurrentUserSchema, personal: true } as const;
    return this.gateway.send(call, opts?.signal);
  }
}
