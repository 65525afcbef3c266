import {
  useCallback,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  type KeyboardEvent,
  type PointerEvent,
  type RefObject,
} from 'react';
import { centreOn, fitView, panBy, viewportHeight, zoomAt, type Box, type Drawing, type View } from './model';

const STEP = 1.25;
const KEY_PAN = 48;

/**
 * Pan and zoom over a drawing inside `viewport`: drag to pan; Ctrl/⌘ + wheel (or a
 * trackpad pinch) zooms at the pointer, a plain wheel still scrolls the page; arrow
 * keys pan and + / − / 0 zoom when the viewport has focus. Starts fitted.
 */
export function usePanZoom(viewport: RefObject<HTMLDivElement | null>, drawing: Drawing) {
  const [view, setView] = useState<View>({ x: 0, y: 0, k: 1 });
  const [height, setHeight] = useState(() => viewportHeight(drawing, 800));
  const drag = useRef<{ id: number; x: number; y: number } | null>(null);

  const size = useCallback(() => {
    const el = viewport.current;
    return { width: el?.clientWidth ?? 800, height: el?.clientHeight ?? 400 };
  }, [viewport]);
  const fit = useCallback(() => setView(fitView(drawing, size())), [drawing, size]);
  const zoom = useCallback(
    (factor: number) => {
      const { width, height } = size();
      setView((v) => zoomAt(v, factor, { x: width / 2, y: height / 2 }));
    },
    [size],
  );

  // Before the first paint: size the viewport for this drawing at the page's width, then fit.
  useLayoutEffect(() => {
    const width = viewport.current?.clientWidth ?? 800;
    const h = viewportHeight(drawing, width);
    setHeight(h);
    setView(fitView(drawing, { width, height: h }));
  }, [drawing, viewport]);

  useEffect(() => {
    const el = viewport.current;
    if (!el) return;
    // React's onWheel is passive and cannot keep the page from zooming, so this one is native.
    const onWheel = (event: WheelEvent) => {
      if (!event.ctrlKey && !event.metaKey) return;
      event.preventDefault();
      const box = el.getBoundingClientRect();
      setView((v) =>
        zoomAt(v, Math.exp(-event.deltaY * 0.002), { x: event.clientX - box.left, y: event.clientY - box.top }),
      );
    };
    el.addEventListener('wheel', onWheel, { passive: false });
    return () => el.removeEventListener('wheel', onWheel);
  }, [viewport]);

  const bind = {
    onPointerDown: (event: PointerEvent<HTMLDivElement>) => {
      if (event.button !== 0) return;
      event.currentTarget.setPointerCapture(event.pointerId);
      drag.current = { id: event.pointerId, x: event.clientX, y: event.clientY };
    },
    onPointerMove: (event: PointerEvent<HTMLDivElement>) => {
      const from = drag.current;
      if (!from || from.id !== event.pointerId) return;
      drag.current = { ...from, x: event.clientX, y: event.clientY };
      setView((v) => panBy(v, event.clientX - from.x, event.clientY - from.y));
    },
    onPointerUp: () => {
      drag.current = null;
    },
    onKeyDown: (event: KeyboardEvent<HTMLDivElement>) => {
      const pans: Record<string, [number, number]> = {
        ArrowLeft: [KEY_PAN, 0],
        ArrowRight: [-KEY_PAN, 0],
        ArrowUp: [0, KEY_PAN],
        ArrowDown: [0, -KEY_PAN],
      };
      const pan = pans[event.key];
      if (pan) setView((v) => panBy(v, pan[0], pan[1]));
      else if (event.key === '+' || event.key === '=') zoom(STEP);
      else if (event.key === '-') zoom(1 / STEP);
      else if (event.key === '0') fit();
      else return;
      event.preventDefault();
    },
  };

  return {
    view,
    /** The viewport's height in pixels. */
    height,
    fit,
    zoomIn: () => zoom(STEP),
    zoomOut: () => zoom(1 / STEP),
    /** Shows `box` in the middle, at least at natural size. */
    centre: (box: Box) => setView((v) => centreOn(box, size(), Math.max(1, v.k))),
    bind: { ...bind, onPointerCancel: bind.onPointerUp },
  };
}
