import { useState } from 'react';
import { Box, Text } from 'ink';
import { backfillEventSlugs, type SlugBackfill } from '../../api/maintenance.ts';
import { Busy } from '../../ui/Busy.tsx';
import { ProblemView } from '../../ui/ProblemView.tsx';
import { Screen } from '../../ui/Screen.tsx';
import { StaticTable, type Column } from '../../ui/Table.tsx';
import { useConnection, useKeys } from '../../ui/shell.ts';
import { useAction, useLoad } from '../../ui/useRequest.ts';

/** Rows shown of a long list of changes (the screen stays within 24 lines); the rest are counted. */
const SHOWN = 10;

const COLUMNS: readonly Column[] = [
  { header: 'EVENT', width: 8 },
  { header: 'FROM', min: 12 },
  { header: 'TO', min: 20, grow: 2 },
];

function Changes({ report }: { report: SlugBackfill }) {
  const rows = report.changes.slice(0, SHOWN).map((change) => [change.eventId.slice(0, 8), change.from ?? '(none)', change.to]);
  return (
    <Box flexDirection="column">
      <StaticTable columns={COLUMNS} rows={rows} />
      {report.changes.length > SHOWN && <Text dimColor>… and {report.changes.length - SHOWN} more</Text>}
    </Box>
  );
}

/**
 * Backfill event slugs: opening the screen asks for a dry run (nothing written) and shows what would change;
 * Enter applies it, then the screen shows what the server changed.
 */
export function BackfillSlugs() {
  const { client } = useConnection();
  const preview = useLoad(() => backfillEventSlugs(client, true), []);
  const applying = useAction();
  const [applied, setApplied] = useState<SlugBackfill>();
  const pending = preview.data && preview.data.changed > 0;
  useKeys((input, key) => {
    if (applied || preview.loading) return;
    if (key.return && pending) applying.run(() => backfillEventSlugs(client, false), setApplied);
    if (input === 'r' && !applying.busy) preview.reload();
  });

  if (applied) {
    return (
      <Screen title="Event slugs backfilled" hints={[]}>
        <Text color="green">
          ✔ {applied.changed} of {applied.scanned} events got their slug; {applied.unchanged} unchanged.
        </Text>
        {applied.changed > 0 && <Changes report={applied} />}
      </Screen>
    );
  }
  return (
    <Screen title="Backfill event slugs" hints={pending ? [['enter', 'apply'], ['r', 'preview again']] : [['r', 'preview again']]}>
      {preview.loading && <Busy label="Previewing (dry run)…" />}
      {!preview.loading && preview.failure && <ProblemView failure={preview.failure} />}
      {!preview.loading && !preview.failure && preview.data && (
        <Box flexDirection="column">
          {preview.data.changed === 0 ? (
            <Text color="green">✔ Nothing to change: all {preview.data.scanned} events have their canonical slug.</Text>
          ) : (
            <>
              <Text>
                Dry run: {preview.data.changed} of {preview.data.scanned} events would get a new slug; {preview.data.unchanged} unchanged.
              </Text>
              <Changes report={preview.data} />
              <Box marginTop={1}>
                {applying.busy ? <Busy label="Applying…" /> : <Text bold>Press enter to apply (one transaction), esc to leave it.</Text>}
              </Box>
              {applying.failure && <ProblemView failure={applying.failure} />}
            </>
          )}
        </Box>
      )}
    </Screen>
  );
}
