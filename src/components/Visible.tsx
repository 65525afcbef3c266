import { splitInvisible } from '../model/invisible';

/**
 * Agent- or file-provided text with its direction-control and invisible characters drawn
 * as markers (⟨U+202E⟩) instead of acting on the text around them.
 */
export function Visible({ text }: { text: string }) {
  const pieces = splitInvisible(text);
  if (pieces.length === 1 && typeof pieces[0] === 'string') return <>{text}</>;
  return (
    <>
      {pieces.map((piece, i) =>
        typeof piece === 'string' ? (
          piece
        ) : (
          <span key={i} className="inv-invisible" title={`${piece.code} ${piece.name}`}>
            ⟨{piece.code}⟩
          </span>
        ),
      )}
    </>
  );
}
