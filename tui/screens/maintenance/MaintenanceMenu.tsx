import { Screen } from '../../ui/Screen.tsx';
import { SelectList } from '../../ui/SelectList.tsx';
import { useNavigation } from '../../ui/shell.ts';
import { BackfillSlugs } from './BackfillSlugs.tsx';
import { Migrations } from './Migrations.tsx';
import { ResetDatabase } from './ResetDatabase.tsx';
import { Seeder } from './Seeder.tsx';

export function MaintenanceMenu() {
  const navigation = useNavigation();
  return (
    <Screen title="Seed and maintenance" hints={[['↑/↓', 'move'], ['enter', 'open']]}>
      <SelectList
        choices={[
          { key: 'migrations', value: () => <Migrations />, label: 'Run migrations' },
          { key: 'seeder', value: () => <Seeder />, label: 'Run the seeder (accounts and the demo venue)' },
          { key: 'backfill', value: () => <BackfillSlugs />, label: 'Backfill event slugs' },
          { key: 'reset', value: () => <ResetDatabase />, label: 'Reset the database…' },
        ]}
        onSelect={(screen) => navigation.push(screen())}
      />
    </Screen>
  );
}
