/**
 * The pipeline board (issue 39): one column per stage, a page of cards each, more on request. What a card
 * shows and how a column's page is asked for, shared by the page, the Action and the island.
 */
import type { LeadStage } from './schemas/lead-work';

/** Cards a column shows at first, and adds on each "Show more". */
export const BOARD_CARDS_PER_PAGE = 20;

export interface BoardCard {
  email: string;
  /** The person page's key (base64url of the email). */
  key: string;
  name: string;
  businessName: string;
  /** The newest finished website check's score, 0–100; null when none. */
  score: number | null;
  ownerName: string | null;
  /** A calendar day of the site's time zone ("2026-12-07"); null when none. */
  followUpOn: string | null;
  /** ISO time of their latest lead event. */
  lastAt: string;
}

export interface BoardColumn {
  stage: LeadStage;
  total: number;
  cards: BoardCard[];
}

/** The list's filters the board takes (the stage is each column's own; the board is sorted by latest activity). */
export interface BoardFilters {
  q: string;
  kind: string;
  owner: string;
  due: boolean;
}
