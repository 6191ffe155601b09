import { describeChatbotEndToEnd } from './support/chatbot-end-to-end.js';

describeChatbotEndToEnd('express');
