import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, type OpenedEngine } from './engines.ts';

describe.each(engines)('SqlDriver.transaction on $name', (engine) => {
  let opened: OpenedEngine;
  beforeAll(async () => {
    opened = await engine.open();
    await opened.driver.exec('CREATE TABLE tx_notes (id int PRIMARY KEY)');
  });
  afterAll(() => opened.close());

  it('commits what the callback wrote and answers its result', async () => {
    const { driver } = opened;
    const answer = await driver.transaction(async (tx) => {
      await tx.query('INSERT INTO tx_notes VALUES ($1)', [1]);
      return tx.query<{ n: number }>('SELECT count(*)::int AS n FROM tx_notes');
    });
    expect(answer).toEqual([{ n: 1 }]);
    expect(await driver.query('SELECT id FROM tx_notes')).toEqual([{ id: 1 }]);
  });

  it('rolls back every statement when the callback throws, and rethrows', async () => {
    const { driver } = opened;
    const failing = driver.transaction(async (tx) => {
      await tx.query('INSERT INTO tx_notes VALUES ($1)', [2]);
      await tx.query('INSERT INTO tx_notes VALUES ($1)', [1]);
    });
    await expect(failing).rejects.toThrow(/duplicate key/);
    expect(await driver.query('SELECT id FROM tx_notes ORDER BY id')).toEqual([{ id: 1 }]);
  });

  it('keeps its uncommitted rows from a statement run beside it', async () => {
    const { driver } = opened;
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let inserted = () => {};
    const written = new Promise<void>((resolve) => {
      inserted = resolve;
    });
    const tx = driver.transaction(async (t) => {
      await t.query('INSERT INTO tx_notes VALUES ($1)', [3]);
      inserted();
      await held;
      throw new Error('changed my mind');
    });
    await written;
    // On PGlite this waits for the transaction to end; on Postgres it runs on another connection.
    const beside = driver.query<{ id: number }>('SELECT id FROM tx_notes WHERE id = 3');
    release();
    await expect(tx).rejects.toThrow('changed my mind');
    expect(await beside).toEqual([]);
  });
});
