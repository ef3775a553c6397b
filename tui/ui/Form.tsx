import { useState } from 'react';
import { Box, Text } from 'ink';
import TextInput from 'ink-text-input';
import type { Failure } from '../api/failure.ts';
import { Busy } from './Busy.tsx';
import { ProblemView } from './ProblemView.tsx';
import { useKeys, useTyping } from './shell.ts';
import { useLatestState } from './useLatestState.ts';

export interface Option {
  label: string;
  value: string;
}

export interface FormField {
  name: string;
  label: string;
  /** `choice` fields take ←/→ (or space) instead of typing. */
  kind?: 'text' | 'password' | 'choice';
  options?: readonly Option[];
  placeholder?: string;
  /** Checked before anything is sent; returns the message, or undefined when the value is fine. */
  validate?(value: string): string | undefined;
  /** Server error paths reported on this field besides `body/<name>` (e.g. `body/username` for a login field). */
  errorPaths?: readonly string[];
}

export type FormValues = Record<string, string>;

export interface FormProps {
  fields: readonly FormField[];
  initialValues?: FormValues;
  /** The field that has the keyboard first. */
  initialFocus?: number;
  onSubmit(values: FormValues): void;
  busy?: boolean;
  busyLabel?: string;
  failure?: Failure;
  /** A heading over the failure box (e.g. "The server refused the reset"). */
  failureHeading?: string;
}

const fieldOf = (fields: readonly FormField[], path: string) =>
  fields.find((field) => path === field.name || path === `body/${field.name}` || field.errorPaths?.includes(path));

/**
 * Fields one under the other: ↑/↓ move between them (wrapping), Enter goes to the next and submits on the last.
 * Field errors from the server (`body/<name>`) appear beside their field; the rest in the problem box.
 */
export function Form({ fields, initialValues = {}, initialFocus = 0, onSubmit, busy = false, busyLabel = 'Saving…', failure, failureHeading }: FormProps) {
  const [values, setValues, latestValues] = useLatestState<FormValues>(
    Object.fromEntries(fields.map((field) => [field.name, initialValues[field.name] ?? (field.kind === 'choice' ? (field.options?.[0]?.value ?? '') : '')])),
  );
  const [focus, setFocus, latestFocus] = useLatestState(initialFocus);
  const [localErrors, setLocalErrors] = useState<Record<string, string>>({});
  const current = fields[focus];
  useTyping(!busy && current?.kind !== 'choice');

  const serverErrors: Record<string, string> = {};
  const otherErrors: Failure['errors'] = [];
  for (const error of failure?.errors ?? []) {
    const field = fieldOf(fields, error.path);
    if (field) serverErrors[field.name] ??= error.message;
    else otherErrors.push(error);
  }

  function submit() {
    const values = latestValues.current;
    const errors: Record<string, string> = {};
    for (const field of fields) {
      const message = field.validate?.(values[field.name]);
      if (message) errors[field.name] = message;
    }
    setLocalErrors(errors);
    const firstInvalid = fields.findIndex((field) => errors[field.name]);
    if (firstInvalid >= 0) setFocus(firstInvalid);
    else onSubmit(values);
  }

  function cycle(field: FormField, step: number) {
    const options = field.options ?? [];
    if (options.length === 0) return;
    const index = options.findIndex((option) => option.value === latestValues.current[field.name]);
    const next = options[(index + step + options.length) % options.length];
    setValues((previous) => ({ ...previous, [field.name]: next.value }));
  }

  useKeys((input, key) => {
    if (key.upArrow) setFocus((index) => (index - 1 + fields.length) % fields.length);
    else if (key.downArrow || key.tab) setFocus((index) => (index + 1) % fields.length);
    else if (key.return) {
      if (latestFocus.current === fields.length - 1) submit();
      else setFocus(latestFocus.current + 1);
    } else if (fields[latestFocus.current]?.kind === 'choice') {
      if (key.leftArrow) cycle(fields[latestFocus.current], -1);
      else if (key.rightArrow || input === ' ') cycle(fields[latestFocus.current], 1);
    }
  }, !busy);

  const labelWidth = Math.max(...fields.map((field) => field.label.length)) + 2;
  return (
    <Box flexDirection="column">
      {fields.map((field, index) => {
        const focused = index === focus && !busy;
        const error = localErrors[field.name] ?? serverErrors[field.name];
        return (
          <Box key={field.name}>
            <Text color="cyan">{focused ? '❯ ' : '  '}</Text>
            <Box width={labelWidth}>
              <Text bold={focused}>{field.label}</Text>
            </Box>
            {field.kind === 'choice' ? (
              <ChoiceValue field={field} value={values[field.name]} focused={focused} />
            ) : (
              <TextInput
                value={values[field.name]}
                onChange={(value) => {
                  setValues((previous) => ({ ...previous, [field.name]: value }));
                  setLocalErrors(({ [field.name]: _cleared, ...rest }) => rest);
                }}
                focus={focused}
                showCursor={focused}
                mask={field.kind === 'password' ? '*' : undefined}
                placeholder={field.placeholder}
              />
            )}
            {error && <Text color="red"> ✖ {error}</Text>}
          </Box>
        );
      })}
      {busy && (
        <Box marginTop={1}>
          <Busy label={busyLabel} />
        </Box>
      )}
      {failure && !busy && (
        <Box marginTop={1}>
          <ProblemView failure={{ ...failure, errors: otherErrors }} heading={failureHeading} />
        </Box>
      )}
    </Box>
  );
}

function ChoiceValue({ field, value, focused }: { field: FormField; value: string; focused: boolean }) {
  const options = field.options ?? [];
  return (
    <Text>
      {options.map((option, index) => (
        <Text key={option.value}>
          {index > 0 && ' '}
          {option.value === value ? (
            <Text color={focused ? 'cyan' : undefined} bold>
              [{option.label}]
            </Text>
          ) : (
            <Text dimColor> {option.label} </Text>
          )}
        </Text>
      ))}
      {focused && <Text dimColor>  ←/→ change</Text>}
    </Text>
  );
}
