// The job view page's entry: the page, and its link to the extension (messages checked on arrival).
import { isJobHostMessage, type JobHostMessage, type JobPageMessage } from '../../core/jobView/protocol';
import { PageLink } from '../common/pageLink';
import { JobViewPage } from './jobViewPage';

const link = new PageLink<JobHostMessage, JobPageMessage>(isJobHostMessage, 'Job view');
const page = new JobViewPage(link);
link.start((message) => page.onMessage(message), { type: 'ready' });
