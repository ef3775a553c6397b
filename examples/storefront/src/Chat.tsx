import { useChat } from '@ai-sdk/react';
import { DefaultChatTransport } from 'ai';
import { useEffect, useMemo, useRef, useState, type FormEvent, type KeyboardEvent, type RefObject } from 'react';
import { API_URL } from './api.ts';
import { words, type Locale } from './i18n.ts';
import { Markdown } from './markdown.tsx';

/**
 * The website chat (issue 34 §4): `useChat` (AI SDK) against `POST /llm/chat`, which streams the AI SDK's UI
 * message stream. The panel opens and closes (its button, Escape), takes the focus to its input and gives it back
 * to the button that opened it; an answer is announced once complete in a polite live region; the assistant's
 * Markdown is rendered safely (./markdown.tsx). The page lays the panel out beside the content on a wide screen and
 * below it on a phone (style.css), so it never covers the booking form.
 */
export function Chat({ locale, open, onClose, opener }: { locale: Locale; open: boolean; onClose: () => void; opener: RefObject<HTMLButtonElement | null> }) {
  const w = words(locale);
  const [input, setInput] = useState('');
  const inputRef = useRef<HTMLInputElement>(null);
  const panelRef = useRef<HTMLElement>(null);
  const transport = useMemo(() => new DefaultChatTransport({ api: `${API_URL}/llm/chat`, credentials: 'omit', body: { locale } }), [locale]);
  const { messages, sendMessage, status, error, regenerate, clearError } = useChat({ transport });
  const busy = status === 'submitted' || status === 'streaming';
  const [announcement, setAnnouncement] = useState('');
  const wasOpen = useRef(open);

  useEffect(() => {
    if (open) {
      inputRef.current?.focus();
      panelRef.current?.scrollIntoView?.({ block: 'end' });
    } else if (wasOpen.current) opener.current?.focus();
    wasOpen.current = open;
  }, [open]);

  // The answer is announced once, when it is complete (not token by token).
  useEffect(() => {
    if (status !== 'ready') return;
    const last = messages.at(-1);
    if (last?.role === 'assistant') setAnnouncement(last.parts.map((part) => (part.type === 'text' ? part.text : '')).join(' ').replace(/[*_`#[\]]|\(https?:[^)]*\)/g, ''));
  }, [status, messages]);

  function submit(e: FormEvent) {
    e.preventDefault();
    if (!input.trim() || busy) return;
    clearError();
    void sendMessage({ text: input.trim() }).catch(() => undefined);
    setInput('');
  }

  function onKeyDown(e: KeyboardEvent) {
    if (e.key === 'Escape') {
      e.stopPropagation();
      onClose();
    }
  }

  if (!open) return null;
  return (
    <aside className="chat" aria-labelledby="chat-title" ref={panelRef} onKeyDown={onKeyDown}>
      <div className="chat-head">
        <h2 id="chat-title">{w.chatTitle}</h2>
        <button type="button" className="button button-ghost chat-close" onClick={onClose} aria-label={w.chatClose}>
          <span aria-hidden="true">×</span>
        </button>
      </div>
      <div className="chat-body">
        {messages.length === 0 && <p className="muted chat-intro">{w.chatIntro}</p>}
        <ol className="messages">
          {messages.map((message) => (
            <li key={message.id} className={`message ${message.role}`}>
              <span className="visually-hidden">{message.role === 'user' ? w.chatYou : w.chatAssistant}: </span>
              {message.parts.map((part, i) =>
                part.type !== 'text' ? null : message.role === 'assistant' ? (
                  <div key={i} className="markdown">
                    <Markdown text={part.text} locale={locale} />
                  </div>
                ) : (
                  <p key={i}>{part.text}</p>
                ),
              )}
            </li>
          ))}
        </ol>
        {busy && <p className="typing muted">{w.chatWriting}</p>}
        {error && (
          <div className="notice notice-problem" role="alert">
            <p>{w.chatUnavailable}</p>
            <button type="button" className="button button-secondary" onClick={() => void regenerate().catch(() => undefined)}>
              {w.retry}
            </button>
          </div>
        )}
      </div>
      <p className="visually-hidden" aria-live="polite" aria-atomic="true">
        {announcement}
      </p>
      <form onSubmit={submit} className="chat-form">
        <label htmlFor="chat-input" className="visually-hidden">
          {w.chatInput}
        </label>
        <input id="chat-input" ref={inputRef} value={input} onChange={(e) => setInput(e.target.value)} placeholder={w.chatInput} autoComplete="off" maxLength={2000} />
        <button type="submit" className="button button-primary" disabled={busy}>
          {w.chatSend}
        </button>
      </form>
    </aside>
  );
}
