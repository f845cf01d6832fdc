import { Hono } from 'hono';
import { ack } from '../lib/envelope';
import { checkThemeEmbed } from '../pagespeed/embed-status';
import { getPageSpeedHistory, getPageSpeedScore, recheckPageSpeed } from '../pagespeed/score';
import type { AppEnv } from '../types';
import type { AckEnvelope } from '../../shared/api/envelope';
import type { EmbedStatus, ScoreAnswer, ScoreHistory } from '../../shared/api/page-speed';

// /api/v2/home: theme app-embed status and page-speed score.
export const homeRoutes = new Hono<AppEnv>();

// {ack: 1, data: {url, status}}: status 1 on, 0 off; url opens the theme editor's App embeds with ours.
homeRoutes.get('/api/v2/home/checkThemeAppExtension', async (c) =>
  ack<EmbedStatus>(c, await checkThemeEmbed(c.env, c.get('db'), c.get('shop'))),
);

// {ack: 1, score: {pc, mb}, status, message, checked_at[, reason]}: score and status at the top level, as
// documented. status 0 never checked (a check starts now), 2 in progress, 1 ready, 3 failed (message says
// why, reason is password_protected | unreachable | unavailable; score keeps the last good scores);
// checked_at: when the scores shown were measured (epoch ms, null before the first).
homeRoutes.get('/api/v2/home/getPageSpeedScore', async (c) => {
  const answer = await getPageSpeedScore(c.env, c.get('db'), c.get('shop'));
  return c.json({ ack: 1, ...answer } satisfies Omit<AckEnvelope, 'message'> & ScoreAnswer);
});

// {ack: 1}: starts a check, or keeps the one already running; 429 within the cooldown after the last one.
homeRoutes.post('/api/v2/home/refreshPageSpeedOnline', async (c) => {
  await recheckPageSpeed(c.env, c.get('db'), c.get('shop'));
  return ack(c);
});

// {ack: 1, data: {list: [{checked_at, pc, mb}]}}: the last finished checks, oldest first (the dashboard's
// score history; no document asks for it, issue 23).
homeRoutes.get('/api/v2/home/getPageSpeedHistory', async (c) =>
  ack<ScoreHistory>(c, await getPageSpeedHistory(c.get('db'), c.get('shop'))),
);
