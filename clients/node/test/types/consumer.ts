// A TypeScript user of @runsvc/client: `npm run typecheck` checks that it
// type-checks against src/index.d.ts (and, in node_install_test.go, against
// the installed package).
import { RunsvcClient, Worker, ToolError, withRetry, classify, Reason, REASONS, RETRYABLE, CATALOGUE_VERSION } from '@runsvc/client';
import type { Classification, ReasonName, ToolCall } from '@runsvc/client';

export async function example(address: string): Promise<string> {
  const client = new RunsvcClient(address, { callTimeoutMs: 5_000 });
  const worker = new Worker(client, {
    upper: (args: Record<string, any>, call: ToolCall) => {
      if (call.cancelled) throw new ToolError('cancelled', { retryable: true });
      return String(args.text).toUpperCase();
    },
  }).start();
  await worker.waitRegistered(1_000);
  try {
    const { json } = await withRetry(() => client.call('RunService/GetRun', { runId: 'run_1' }), { deadline: Date.now() + 10_000 });
    return json.run.runId as string;
  } catch (err) {
    const c: Classification = classify(err);
    const reason: ReasonName | null = c.reason === Reason.RUN_NOT_FOUND ? Reason.RUN_NOT_FOUND : null;
    return `${reason ?? c.code} ${RETRYABLE.has(Reason.OVERLOADED)} ${REASONS.length} ${CATALOGUE_VERSION}`;
  } finally {
    await worker.stop();
    client.close();
  }
}
