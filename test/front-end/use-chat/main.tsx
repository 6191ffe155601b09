/**
 * A React page driven by the AI SDK's own `useChat`, as a user's front end would be, talking to a
 * generated chatbot or agent app with no configuration (`test/templates/use-chat.e2e-spec.ts`
 * builds it with Vite and serves it in front of the app). The chat id lives in `location.hash`,
 * so a reload keeps the chat: its messages come back from `/api/chat/:id/messages` and
 * `resume: true` asks `/api/chat/:id/stream` for an answer still running. Stop also sends
 * `DELETE /api/chat/:id/stream`: `useChat`'s `stop()` only closes the connection.
 */
import { useChat } from '@ai-sdk/react';
import { DefaultChatTransport, getToolName, isToolUIPart, type UIMessage } from 'ai';
import { StrictMode, useState, type FormEvent } from 'react';
import { createRoot } from 'react-dom/client';

/** What the server adds to a message: `interrupted` on an answer stopped mid-way. */
type ChatMessage = UIMessage<{ interrupted?: boolean }>;

/** This tab's chat id: the one in the address, or a new one put there. */
function chatId(): string {
  const id = decodeURIComponent(location.hash.slice(1));
  if (id !== '') return id;
  const created = crypto.randomUUID();
  history.replaceState(null, '', `#${created}`);
  return created;
}

function Chat({ id, initial }: { id: string; initial: ChatMessage[] }) {
  const { messages, sendMessage, status, stop, error } = useChat<ChatMessage>({
    id,
    messages: initial,
    resume: true,
    transport: new DefaultChatTransport({ api: '/api/chat' }),
  });
  const [input, setInput] = useState('');
  const busy = status === 'submitted' || status === 'streaming';
  // stop() closes the connection, which a resumable answer outlives: DELETE stops it on the server.
  const halt = () => {
    void stop();
    void fetch(`/api/chat/${encodeURIComponent(id)}/stream`, { method: 'DELETE' });
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (input.trim() === '' || busy) return;
    void sendMessage({ text: input });
    setInput('');
  };
  return (
    <main data-testid="chat" data-status={status}>
      <ol data-testid="messages">
        {messages.map((message) => (
          <li
            key={message.id}
            data-testid="message"
            data-role={message.role}
            data-interrupted={message.metadata?.interrupted === true ? 'true' : undefined}
          >
            {message.parts.map((part, index) => {
              if (part.type === 'text') {
                return (
                  <span key={index} data-testid="text">
                    {part.text}
                  </span>
                );
              }
              if (!isToolUIPart(part)) return null;
              return (
                <div
                  key={index}
                  data-testid="tool"
                  data-tool={getToolName(part)}
                  data-state={part.state}
                >
                  <code data-testid="tool-input">{JSON.stringify(part.input)}</code>
                  {part.state === 'output-available' && (
                    <code data-testid="tool-output">{JSON.stringify(part.output)}</code>
                  )}
                  {part.state === 'output-error' && (
                    <code data-testid="tool-error">{part.errorText}</code>
                  )}
                </div>
              );
            })}
          </li>
        ))}
      </ol>
      {error && <p data-testid="error">{error.message}</p>}
      <form onSubmit={submit}>
        <input
          data-testid="input"
          value={input}
          onChange={(event) => setInput(event.target.value)}
        />
        <button data-testid="send" type="submit" disabled={busy}>
          Send
        </button>
        {busy && (
          <button data-testid="stop" type="button" onClick={halt}>
            Stop
          </button>
        )}
      </form>
    </main>
  );
}

async function main(): Promise<void> {
  const id = chatId();
  const response = await fetch(`/api/chat/${encodeURIComponent(id)}/messages`);
  if (!response.ok) throw new Error(`GET /api/chat/${id}/messages answered ${response.status}`);
  const initial = (await response.json()) as ChatMessage[];
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <Chat id={id} initial={initial} />
    </StrictMode>,
  );
}

void main();
