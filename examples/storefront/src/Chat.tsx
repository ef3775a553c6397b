import { useMemo, useState, type FormEvent, type ReactNode } from 'react';
import { useChat } from '@ai-sdk/react';
import { DefaultChatTransport } from 'ai';
import { API_URL, type Locale } from './api.ts';

/**
 * The website chat: `useChat` (AI SDK) against `POST /llm/chat`, which streams the AI SDK's UI message stream.
 * Only text parts are shown; the assistant's links (markdown or bare URLs, always the site's own pages) are links.
 */
export function Chat({ locale }: { locale: Locale }) {
  const [open, setOpen] = useState(false);
  const [input, setInput] = useState('');
  const transport = useMemo(() => new DefaultChatTransport({ api: `${API_URL}/llm/chat`, credentials: 'omit', body: { locale } }), [locale]);
  const { messages, sendMessage, status, error } = useChat({ transport });

  function submit(e: FormEvent) {
    e.preventDefault();
    if (!input.trim()) return;
    sendMessage({ text: input });
    setInput('');
  }

  if (!open) {
    return (
      <button className="chat-open" onClick={() => setOpen(true)}>
        {locale === 'vi' ? 'Hỏi chúng tôi' : 'Ask us'}
      </button>
    );
  }
  return (
    <aside className="chat" aria-label="Chat">
      <ol className="messages">
        {messages.map((message) => (
          <li key={message.id} className={`message ${message.role}`}>
            {message.parts.map((part, i) => (part.type === 'text' ? <span key={i}>{withLinks(part.text)}</span> : null))}
          </li>
        ))}
      </ol>
      {status === 'submitted' && <p className="typing">…</p>}
      {error && <p role="alert">The assistant is unavailable right now.</p>}
      <form onSubmit={submit}>
        <input value={input} onChange={(e) => setInput(e.target.value)} placeholder={locale === 'vi' ? 'Câu hỏi của bạn' : 'Your question'} aria-label="Your question" />
        <button type="submit" disabled={status === 'streaming' || status === 'submitted'}>
          {locale === 'vi' ? 'Gửi' : 'Send'}
        </button>
      </form>
    </aside>
  );
}

/** Markdown links `[label](https://…)` and bare `https://…` URLs as anchors; the rest as text. */
export function withLinks(text: string): ReactNode[] {
  const out: ReactNode[] = [];
  const pattern = /\[([^\]]+)\]\((https?:\/\/[^)\s]+)\)|(https?:\/\/[^\s)<>\]]+[^\s)<>\].,;:!?'"])/g;
  let last = 0;
  for (const found of text.matchAll(pattern)) {
    out.push(text.slice(last, found.index));
    const href = found[2] ?? found[3];
    out.push(
      <a key={found.index} href={href}>
        {found[1] ?? href}
      </a>,
    );
    last = found.index! + found[0].length;
  }
  out.push(text.slice(last));
  return out;
}
