// The comparison page's entry: the page, and its link to the extension (messages checked on arrival).
import { isComparisonHostMessage, type ComparisonHostMessage, type ComparisonPageMessage } from '../../core/comparison/viewProtocol';
import { PageLink } from '../common/pageLink';
import { ComparisonPage } from './comparisonPage';

const READY_MARK = 'comparison:ready';

const link = new PageLink<ComparisonHostMessage, ComparisonPageMessage>(isComparisonHostMessage, 'Comparison');
const page = new ComparisonPage(link);
performance.mark(READY_MARK);
link.start((message) => page.onMessage(message), { type: 'ready' });
