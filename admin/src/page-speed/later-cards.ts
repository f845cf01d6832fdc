// What /main shows one transition after its first render (<Later>): the cards beside and below the score
// and the footer, one chunk fetched while the first screen hydrates (hooks/lazy-part.ts, issue 26).
export { AppEmbedCard, SpeedUpCard } from './embed-cards';
export { FaqCard } from './faq-card';
export { AppFooterHelp } from '../support/footer-help';
