// The same chatbot on Fastify: `toolkit new --platform fastify`, its own tests, dev and the page.
import { describeChatbotEndToEnd } from './support/chatbot-end-to-end.js';

describeChatbotEndToEnd('fastify');
