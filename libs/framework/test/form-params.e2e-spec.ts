import { afterAll, describe, expect, it } from '@jest/globals';
import { Controller } from '@nestjs/common';
import { App, Arg, Route } from 'toolkit';
import { TestClient } from 'toolkit/testing';

@Controller('orders')
class OrdersController {
  @Route('/', { methods: ['POST'] })
  create(
    @Arg('quantity', { type: 'integer' }) quantity: number,
    @Arg('price', { type: 'number' }) price: number,
    @Arg('gift', { type: 'boolean', default: false }) gift: boolean,
  ) {
    return { quantity, price, gift };
  }
}

describe('form bodies convert numbers and booleans like query strings', () => {
  const app = new App({ controllers: [OrdersController], logger: false, cwd: '/nonexistent' });
  const client = new TestClient(app);
  afterAll(() => app.close());

  it('converts urlencoded form values to the declared types', async () => {
    const res = await client.post('/orders', {
      data: { quantity: '3', price: '9.5', gift: 'true' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ quantity: 3, price: 9.5, gift: true });
  });

  it('names every form value that is not of its type in one 422', async () => {
    const res = await client.post('/orders', { data: { quantity: '2.5', price: 'abc' } });
    expect(res.statusCode).toBe(422);
    expect(JSON.stringify(res.json())).toMatch(/quantity[\s\S]*price/);
  });

  it('still requires JSON bodies to carry the declared types', async () => {
    const res = await client.post('/orders', { json: { quantity: '3', price: 1 } });
    expect(res.statusCode).toBe(422);
  });
});
