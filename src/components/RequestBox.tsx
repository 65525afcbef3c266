import { useStored } from '../state/storage';
import { Visible } from './Visible';
import './reading.css';

/** Requests longer than this start folded to their first line: a long one took a third of the sidebar. */
const LONG = 160;

/** What the reader asked for, as the agent wrote it: folds to one line, and stays as the reader left it. */
export function RequestBox({ request }: { request: string }) {
  const [chosen, setOpen] = useStored<boolean | null>('request-open', null);
  const open = chosen ?? request.length <= LONG;
  return (
    <section className="inv-request" data-open={open}>
      <h2>
        <button
          type="button"
          className="inv-request-toggle"
          aria-expanded={open}
          onClick={() => setOpen(!open)}
          title={open ? 'Fold the request to one line' : 'Show the whole request'}
        >
          <span aria-hidden="true">{open ? '▾' : '▸'}</span> You asked
        </button>
      </h2>
      <p className="inv-request-text">
        <Visible text={request} />
      </p>
    </section>
  );
}
