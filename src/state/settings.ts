import { createContext, useContext } from 'react';

/** How the reader likes diffs drawn, kept in localStorage (App) and read by every file. */
export interface ViewSettings {
  /** Whitespace-only changes are left out of modified files' diffs (`git diff -w`). Default false. */
  hideWhitespace: boolean;
  /** Long lines wrap in side by side instead of scrolling sideways. Default false. */
  wrap: boolean;
  /** The colour scheme the page is drawn in, the chosen theme resolved. */
  scheme: 'light' | 'dark';
}

export const ViewSettingsContext = createContext<ViewSettings>({ hideWhitespace: false, wrap: false, scheme: 'light' });

export const useViewSettings = () => useContext(ViewSettingsContext);
