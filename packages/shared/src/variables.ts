/**
 * Message variables of greetings, farewells and quick answers: {{name}}, {{user}}, {{ms}},
 * {{date}}, {{hour}}, {{ticket_id}}, {{queue}}, {{connection}}.
 */
export const MESSAGE_VARIABLES = ['name', 'user', 'ms', 'date', 'hour', 'ticket_id', 'queue', 'connection'] as const;
export type MessageVariable = (typeof MESSAGE_VARIABLES)[number];

export type VariableValues = { name?: string; user?: string; ticketId?: number; queue?: string; connection?: string; now?: Date };

/** 'Bom dia' before noon, 'Boa tarde' until 18:00, 'Boa noite' after (the product's customers write in Portuguese first). */
export function greetingByTime(hour: number): string {
  if (hour >= 5 && hour < 12) return 'Bom dia';
  if (hour >= 12 && hour < 18) return 'Boa tarde';
  return 'Boa noite';
}

const pad = (n: number) => String(n).padStart(2, '0');

export function renderVariables(template: string, values: VariableValues): string {
  const now = values.now ?? new Date();
  const map: Record<MessageVariable, string> = {
    name: values.name ?? '',
    user: values.user ?? '',
    ms: greetingByTime(now.getHours()),
    date: `${pad(now.getDate())}/${pad(now.getMonth() + 1)}/${now.getFullYear()}`,
    hour: `${pad(now.getHours())}:${pad(now.getMinutes())}`,
    ticket_id: values.ticketId === undefined ? '' : String(values.ticketId),
    queue: values.queue ?? '',
    connection: values.connection ?? '',
  };
  return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, key: string) => (key in map ? map[key as MessageVariable] : whole));
}
