/** The mails the product writes, in the language of the `emailLanguage` setting. */
export type EmailLanguage = 'pt' | 'en' | 'es';

type Facts = { ticket: number; name: string; number: string; time: string; protocol?: string | null; user?: string };

const TEXTS = {
  pt: {
    closeSubject: (f: Facts) => `Atendimento #${f.ticket} encerrado`,
    closeBody: (f: Facts) => `O atendimento #${f.ticket} de ${f.name} (${f.number}) foi encerrado em ${f.time}.`,
    protocolLine: (p: string) => `Número de protocolo: ${p}`,
    protocolSubject: (f: Facts) => `Protocolo ${f.protocol ?? ''} — atendimento #${f.ticket}`,
    protocolBody: (f: Facts) => `O atendimento #${f.ticket} de ${f.name} (${f.number}) recebeu o número de protocolo ${f.protocol ?? ''}${f.user ? `, dado por ${f.user}` : ''}, em ${f.time}.`,
    testSubject: 'ZapDesk: e-mail de teste',
    testBody: 'Se você está lendo isto, o ZapDesk consegue enviar e-mails com estas configurações.',
  },
  en: {
    closeSubject: (f: Facts) => `Ticket #${f.ticket} closed`,
    closeBody: (f: Facts) => `Ticket #${f.ticket} with ${f.name} (${f.number}) was closed on ${f.time}.`,
    protocolLine: (p: string) => `Protocol number: ${p}`,
    protocolSubject: (f: Facts) => `Protocol ${f.protocol ?? ''} — ticket #${f.ticket}`,
    protocolBody: (f: Facts) => `Ticket #${f.ticket} with ${f.name} (${f.number}) was given the protocol number ${f.protocol ?? ''}${f.user ? ` by ${f.user}` : ''} on ${f.time}.`,
    testSubject: 'ZapDesk: test e-mail',
    testBody: 'If you are reading this, ZapDesk can send e-mails with these settings.',
  },
  es: {
    closeSubject: (f: Facts) => `Atención #${f.ticket} cerrada`,
    closeBody: (f: Facts) => `La atención #${f.ticket} de ${f.name} (${f.number}) se cerró el ${f.time}.`,
    protocolLine: (p: string) => `Número de protocolo: ${p}`,
    protocolSubject: (f: Facts) => `Protocolo ${f.protocol ?? ''} — atención #${f.ticket}`,
    protocolBody: (f: Facts) => `La atención #${f.ticket} de ${f.name} (${f.number}) recibió el número de protocolo ${f.protocol ?? ''}${f.user ? `, dado por ${f.user}` : ''}, el ${f.time}.`,
    testSubject: 'ZapDesk: e-mail de prueba',
    testBody: 'Si está leyendo esto, ZapDesk puede enviar e-mails con esta configuración.',
  },
} as const;

export function emailTexts(language: string) {
  return language === 'en' || language === 'es' ? TEXTS[language] : TEXTS.pt;
}

const LOCALES: Record<EmailLanguage, string> = { pt: 'pt-BR', en: 'en-US', es: 'es-ES' };

/** A moment as the reader of that language writes it, in the server's time zone (TZ). */
export function formatMoment(iso: string, language: string): string {
  const locale = LOCALES[language === 'en' || language === 'es' ? language : 'pt'];
  return new Intl.DateTimeFormat(locale, { dateStyle: 'short', timeStyle: 'short' }).format(new Date(iso));
}
