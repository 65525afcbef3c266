import { createContext, useContext } from 'react';

/** How the reader likes diffs drawn, kept in localStorage (App) and read by every file. */
export interface ViewSettings {
  /** Whitespace-only changes are left out of modified files' diffs (`git diff -w`). Default false. */
  hideWhitespace: boolean;
  /** Long lines wrap in side by side instead of scrolling sideways. Default false. */
  wrap: boolean;
}

export const ViewSettingsContext = createContext<ViewSettings>({ hideWhitespace: false, wrap: false });

export const useViewSettings = () => useContext(ViewSettingsContext);
