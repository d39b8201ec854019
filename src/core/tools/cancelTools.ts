/** A change: cancel jobs that are not final yet. */
import * as z from 'zod';
import { cancelJobs } from '../comparison/comparisonRunner';
import { isFinalStatus, jobStatusName } from '../jobStatus';
import { clientComparisonService } from '../trial/trialComparison';
import { count } from './answers';
import { defineTool, ToolRefusal } from './toolTypes';

export const cancelJobsTool = defineTool({
  name: 'cancel_jobs',
  title: 'Cancel jobs',
  kind: 'change',
  description: 'Asks the service to cancel jobs that have not finished (finished ones are left as they are). Changes the organization: nothing is cancelled until the user agreed to which jobs. Returns how many were cancelled.',
  input: z.strictObject({
    job_ids: z.array(z.string().min(1).max(200)).min(1).max(1000).describe('The jobs to cancel.'),
  }),
  output: z.object({ cancelled: z.number().int(), asked: z.array(z.string()) }),
  needsTrust: true,
  async plan(i, ctx) {
    const statuses = await ctx.client.jobs.statuses([...new Set(i.job_ids)], { signal: ctx.signal });
    if (!statuses.length) throw new ToolRefusal(`No such job: ${i.job_ids.slice(0, 5).join(', ')}.`);
    const open = statuses.filter((s) => typeof s.status !== 'number' || !isFinalStatus(s.status));
    const final = statuses.length - open.length;
    return { text: `Cancel ${count(open.length, 'job')} not finished (${open.map((s) => s.id).slice(0, 10).join(', ')}${open.length > 10 ? ', …' : ''})${final ? `; ${count(final, 'job')} already final ${final === 1 ? 'is' : 'are'} left alone` : ''}.`, jobs: 0, targets: open.map((s) => ({ kind: 'job' as const, id: s.id })), data: { to_cancel: open.map((s) => s.id), final: statuses.filter((s) => !open.includes(s)).map((s) => ({ id: s.id, status: typeof s.status === 'number' ? jobStatusName(s.status) : s.status })) } };
  },
  async run(i, ctx) {
    const statuses = await ctx.client.jobs.statuses([...new Set(i.job_ids)], { signal: ctx.signal });
    const open = statuses.filter((s) => typeof s.status !== 'number' || !isFinalStatus(s.status)).map((s) => s.id);
    const cancelled = await cancelJobs(open, clientComparisonService(ctx.client, ctx.grounds), ctx.signal);
    return { text: `Asked the service to cancel ${count(cancelled, 'job')}${open.length > cancelled ? ` (${open.length - cancelled} could not be cancelled)` : ''}.`, data: { cancelled, asked: open } };
  },
});
