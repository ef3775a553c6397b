import { useContext, useEffect, type ReactNode } from 'react';
import { Box, Text } from 'ink';
import { HintLine } from './HintLine.tsx';
import { NavigationContext, useKeys, useScreen, useShell, type Hint } from './shell.ts';

export interface ScreenProps {
  title: string;
  /** This screen's own keys; `esc`, `q` and `?` are added. */
  hints: readonly Hint[];
  /** What Esc does here; going back a screen by default. */
  onBack?: () => void;
  backLabel?: string;
  children: ReactNode;
}

/**
 * Lines a screen takes besides its content: the app's header line and the margin under it, the title, the two
 * margins around the content, and the hint line; plus one, so a frame stays shorter than the terminal (ink
 * redraws a frame as tall as the terminal from the top, scrolling the title away).
 */
export const SCREEN_CHROME_LINES = 7;

/** A titled screen with the hint line at the bottom; Esc goes back, and `?` shows these hints in full. */
export function Screen({ title, hints, onBack, backLabel, children }: ScreenProps) {
  const { active } = useScreen();
  const shell = useShell();
  const navigation = useContext(NavigationContext);
  useKeys((_input, key) => {
    if (!key.escape) return;
    if (onBack) onBack();
    else navigation?.back();
  });
  const hintKey = hints.map((hint) => hint.join(' ')).join('|');
  useEffect(() => {
    if (active) shell.showHelpFor({ title, hints });
    // `hints` is a new array every render; its text is what matters.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [active, title, hintKey]);
  return (
    <Box flexDirection="column">
      <Text bold color="cyan" wrap="truncate-end">
        {title}
      </Text>
      <Box flexDirection="column" marginY={1}>
        {children}
      </Box>
      {shell.notice && (
        <Text color="green" wrap="truncate-end">
          ✔ {shell.notice}
        </Text>
      )}
      <HintLine hints={hints} typing={shell.typing} backLabel={backLabel} />
    </Box>
  );
}
