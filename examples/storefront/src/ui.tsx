import { describeProblem, type DescribedProblem } from '@venue/sdk';
import { useEffect, useId, useRef, useState, type InputHTMLAttributes, type ReactNode } from 'react';
import { attempt, SLOW_AFTER_MS, type Outcome } from './api.ts';
import { words, type Locale } from './i18n.ts';

/**
 * The pieces every page shares: loading that says when the API is slow, failures in the guest's words with a
 * retry (issue 34 §3), form fields with their own error message, the dialog, the page title.
 */

export type Load<T> =
  | { state: 'loading'; slow: boolean; retry: () => void }
  | { state: 'ready'; data: T; retry: () => void; set: (data: T) => void }
  | { state: 'failed'; error: unknown; retry: () => void };

/** Loads once per `deps` (and again on `retry()`); never leaves a rejection behind; says when it takes long. */
export function useLoad<T>(load: () => Promise<{ data?: T; error?: unknown; response?: Response }>, deps: readonly unknown[]): Load<T> {
  const [round, setRound] = useState(0);
  // The answer is kept with the deps it answers: on the render where the deps change (before the effect runs), the
  // previous answer is not shown as this one's.
  const key = JSON.stringify([...deps, round]);
  const [outcome, setOutcome] = useState<{ key: string; result: Outcome<T> } | undefined>();
  const [slow, setSlow] = useState<string | undefined>();
  useEffect(() => {
    let live = true;
    const timer = setTimeout(() => live && setSlow(key), SLOW_AFTER_MS);
    void attempt(load).then((result) => {
      if (!live) return;
      clearTimeout(timer);
      setOutcome({ key, result });
    });
    return () => {
      live = false;
      clearTimeout(timer);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
  const retry = () => setRound((n) => n + 1);
  if (!outcome || outcome.key !== key) return { state: 'loading', slow: slow === key, retry };
  if (outcome.result.ok) return { state: 'ready', data: outcome.result.data, retry, set: (data) => setOutcome({ key, result: { ok: true, data } }) };
  return { state: 'failed', error: outcome.result.error, retry };
}

/** While loading: "Loading…", then, past SLOW_AFTER_MS, that the booking system is slow, with a retry. */
export function Loading({ locale, slow, onRetry }: { locale: Locale; slow?: boolean; onRetry?: () => void }) {
  const w = words(locale);
  return (
    <div className="notice notice-loading" role="status" data-slow={slow ? 'true' : 'false'}>
      <span className="spinner" aria-hidden="true" />
      <p>{slow ? w.slow : w.loading}</p>
      {slow && onRetry && (
        <button type="button" className="button button-secondary" onClick={onRetry}>
          {w.retry}
        </button>
      )}
    </div>
  );
}

/** A failure in the guest's words (the SDK's catalog), with a retry when trying again may help. */
export function ProblemNotice({ locale, error, onRetry, children }: { locale: Locale; error: unknown; onRetry?: () => void; children?: ReactNode }) {
  const w = words(locale);
  const problem = describeProblem(error, locale);
  return (
    <div className="notice notice-problem" role="alert" data-code={problem.code}>
      <p className="problem-message">{problem.message}</p>
      {problem.fields.length > 0 && (
        <ul className="problem-fields">
          {problem.fields.map((field, i) => (
            <li key={i}>{field.message}</li>
          ))}
        </ul>
      )}
      {children}
      {onRetry && (problem.retryable || problem.code === 'network') && (
        <button type="button" className="button button-secondary retry" onClick={onRetry}>
          {w.retry}
        </button>
      )}
      {problem.requestId && <p className="request-id">{w.referenceForHelp(problem.requestId)}</p>}
    </div>
  );
}

/** `load`'s data through `render`, or the loading / failure notice. */
export function Await<T>({ load, locale, children }: { load: Load<T>; locale: Locale; children: (data: T) => ReactNode }) {
  if (load.state === 'loading') return <Loading locale={locale} slow={load.slow} onRetry={load.retry} />;
  if (load.state === 'failed') return <ProblemNotice locale={locale} error={load.error} onRetry={load.retry} />;
  return <>{children(load.data)}</>;
}

/** The document's title: "<page> · <brand>". */
export function useTitle(locale: Locale, title: string | undefined): void {
  useEffect(() => {
    const brand = (import.meta.env.VITE_VENUE_NAME as string | undefined) || words(locale).brand;
    document.title = title ? `${title} · ${brand}` : brand;
  }, [locale, title]);
}

/** A form's failure: its headline, and each failing field's message by the input's name (`contact.email` → `email`). */
export interface FormProblem {
  problem: DescribedProblem;
  /** Input name → message. */
  byInput: Record<string, string>;
}
export function formProblem(error: unknown, locale: Locale, inputOf: (field: string) => string = (field) => field.split('.').pop() ?? field): FormProblem {
  const problem = describeProblem(error, locale);
  const byInput: Record<string, string> = {};
  for (const field of problem.fields) byInput[inputOf(field.field)] ??= field.message;
  return { problem, byInput };
}

/** A labelled input with its hint and its own error (aria-describedby, aria-invalid). */
export function Field({ label, hint, error, children }: { label: string; hint?: string; error?: string; children: (props: { id: string; 'aria-describedby'?: string; 'aria-invalid'?: boolean }) => ReactNode }) {
  const id = useId();
  const described = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`field${error ? ' field-invalid' : ''}`}>
      <label htmlFor={id}>{label}</label>
      {hint && (
        <p className="hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      {children({ id, 'aria-describedby': described, ...(error ? { 'aria-invalid': true } : {}) })}
      {error && (
        <p className="field-error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}

/** A text input in a Field. */
export function TextField({ label, hint, error, ...input }: { label: string; hint?: string; error?: string } & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <Field label={label} hint={hint} error={error}>
      {(aria) => <input {...input} {...aria} />}
    </Field>
  );
}

/** A modal dialog (the platform's <dialog>: focus kept inside, Escape closes it). */
export function Dialog({ open, title, onClose, children }: { open: boolean; title: string; onClose: () => void; children: ReactNode }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog ref={ref} className="dialog" aria-labelledby={titleId} onClose={onClose} onCancel={onClose}>
      <h2 id={titleId}>{title}</h2>
      {children}
    </dialog>
  );
}

/** A list of next steps after a form is sent (waiting list, inquiry): what happens next. */
export function NextSteps({ locale, steps, children }: { locale: Locale; steps: string[]; children?: ReactNode }) {
  return (
    <div className="next-steps">
      <h2>{words(locale).whatNext}</h2>
      <ol>
        {steps.map((step) => (
          <li key={step}>{step}</li>
        ))}
      </ol>
      {children}
    </div>
  );
}
