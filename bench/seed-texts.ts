/** The seed's words: Portuguese names, cities and message texts, with accents. */
import { foldText } from '@zapdesk/shared/domain';

export const FIRST = [
  'João',
  'Maria',
  'José',
  'Ana',
  'Antônio',
  'Francisco',
  'Conceição',
  'Luís',
  'Paulo',
  'Carlos',
  'Márcia',
  'Fátima',
  'Sebastião',
  'Júlia',
  'Lúcia',
  'Raimundo',
  'Tânia',
  'Mônica',
  'Cláudia',
  'Sérgio',
  'Estêvão',
  'Inês',
  'Gonçalo',
  'Vitória',
  'Patrícia',
  'Rafael',
  'Letícia',
  'Caio',
  'Bárbara',
  'Célia',
  'Marcelo',
  'Mariana',
  'Thiago',
  'Beatriz',
  'André',
  'Luíza',
];
export const LAST = [
  'Silva',
  'Santos',
  'Oliveira',
  'Souza',
  'Lima',
  'Pereira',
  'Ferreira',
  'Gonçalves',
  'Araújo',
  'da Conceição',
  'Magalhães',
  'Simões',
  'Ribeiro',
  'Assunção',
  'Brandão',
  'Falcão',
  'Fontes',
  'Guimarães',
  'Leão',
  'Nóbrega',
  'Gomes',
  'Carvalho',
  'Rocha',
  'Almeida',
];
export const CITIES = ['São Paulo', 'Belém', 'Goiânia', 'Florianópolis', 'Maceió', 'João Pessoa', 'Ribeirão Preto', 'Vitória', 'Cuiabá', 'Niterói'];
export const CONTACT_TEXTS = [
  'Olá, bom dia! Gostaria de saber o horário de atendimento.',
  'Meu pedido ainda não chegou, poderiam verificar por favor?',
  'A fatura deste mês veio com valor errado, você pode me ajudar?',
  'Obrigado pela atenção, até mais!',
  'Qual é o prazo de entrega para {city}?',
  'Preciso trocar o endereço de cobrança, mudei para {city}.',
  'Não consigo acessar minha conta desde ontem.',
  'Vocês aceitam cartão de crédito ou só boleto?',
  'Já fiz o pagamento via Pix, segue o comprovante.',
  'Quando vão resolver o problema da conexão? Está lenta demais.',
  'Falei com a {first} ontem e ela disse que iria retornar.',
  'Boa tarde! Vi a promoção no Instagram, ainda está válida?',
  'Quero cancelar a assinatura, como faço?',
  'O técnico não apareceu no horário combinado.',
  'Vocês têm loja física em {city}?',
  'Pode me mandar a segunda via do boleto?',
  'Sim, é isso mesmo. Muito obrigado!',
  'Ok 👍',
];
export const AGENT_TEXTS = [
  'Olá {first}, tudo bem? Vou verificar para você.',
  'Seu pedido foi enviado, o código de rastreio é BR{n}.',
  'Por favor, confirme o CPF do titular da conta.',
  'Pronto, a solicitação foi concluída. Posso ajudar em algo mais?',
  'Peço desculpas pela demora, estamos com alto volume de atendimentos.',
  'A segunda via já está disponível no seu e-mail.',
  'Entendo, {first}. Já encaminhei para o setor técnico.',
  'O prazo de entrega para {city} é de 3 a 5 dias úteis.',
  'Aceitamos cartão de crédito, débito, boleto e Pix.',
  'Obrigado pelo contato! Tenha um ótimo dia.',
];

/**
 * The seed's vocabulary: every distinct word (3 letters or more, folded as the search folds it)
 * of its names, cities and message texts. Common words ('obrigado', 'pedido') are in tens of
 * thousands of messages, first names in a few thousand tickets, last names only in contacts.
 */
export function seedVocabulary(): string[] {
  const words = new Set<string>();
  for (const text of [...FIRST, ...LAST, ...CITIES, ...CONTACT_TEXTS, ...AGENT_TEXTS]) {
    for (const word of foldText(text.replace(/\{\w+\}/g, ' ')).match(/[\p{L}]+/gu) ?? []) if (word.length >= 3) words.add(word);
  }
  return [...words].sort();
}
