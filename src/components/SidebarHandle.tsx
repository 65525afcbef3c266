import type { SidebarLayout } from '../state/useSidebar';
import './SidebarHandle.css';

interface Props {
  layout: SidebarLayout;
  onToggle: () => void;
  onResize: (width: number) => void;
}

/** Steps of the arrow keys on the handle, in px. */
const STEP = 20;

/**
 * The sidebar's edge: dragged (or moved with the arrow keys) to make it narrower or wider,
 * and a button that hides it; once hidden, one button at the left edge shows it again.
 */
export function SidebarHandle({ layout, onToggle, onResize }: Props) {
  if (layout.hidden) {
    return (
      <button type="button" className="inv-sidebar-show" onClick={onToggle} title="Show the sidebar (b)">
        › <span className="inv-visually-hidden">Show the sidebar</span>
      </button>
    );
  }
  return (
    <div className="inv-sidebar-edge">
      <button type="button" className="inv-sidebar-hide" onClick={onToggle} title="Hide the sidebar (b)">
        ‹ <span className="inv-visually-hidden">Hide the sidebar</span>
      </button>
      <div
        className="inv-sidebar-resize"
        role="separator"
        aria-orientation="vertical"
        aria-label="Sidebar width"
        aria-valuenow={layout.width}
        aria-valuemin={180}
        aria-valuemax={800}
        tabIndex={0}
        onKeyDown={(e) => {
          if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
          e.preventDefault();
          onResize(layout.width + (e.key === 'ArrowLeft' ? -STEP : STEP));
        }}
        onPointerDown={(e) => {
          e.preventDefault();
          const handle = e.currentTarget;
          handle.setPointerCapture(e.pointerId);
          const move = (m: PointerEvent) => onResize(m.clientX);
          const up = () => {
            handle.removeEventListener('pointermove', move);
            handle.removeEventListener('pointerup', up);
            handle.removeEventListener('pointercancel', up);
          };
          handle.addEventListener('pointermove', move);
          handle.addEventListener('pointerup', up);
          handle.addEventListener('pointercancel', up);
        }}
      />
    </div>
  );
}
