// Setup file of the `fastify` jest project: the contract suite's apps run on Fastify.
process.env.TOOLKIT_APP_PLATFORM = 'fastify';
