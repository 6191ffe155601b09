/** Raised (as the signal's reason) when the client closes the connection before the answer ends. */
export class ClientDisconnectedError extends Error {
  constructor() {
    super('Client disconnected');
    this.name = 'ClientDisconnectedError';
  }
}

/** Raised (as the signal's reason) when the server shuts down while the answer is still going. */
export class ServerShutdownError extends Error {
  constructor() {
    super('The server is shutting down');
    this.name = 'ServerShutdownError';
  }
}
