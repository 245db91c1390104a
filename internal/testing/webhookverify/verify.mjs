// verify.mjs reads recorded webhook deliveries, one JSON object a line on
// stdin ({"secret", "id", "timestamp", "signature", "body"}), checks each
// with npm's standardwebhooks (Webhook.verify, which also checks the
// timestamp is recent), and prints {"verified": n, "failed": [...]}.
import { Webhook } from "standardwebhooks";
import { createInterface } from "node:readline";

const failed = [];
let verified = 0;
for await (const line of createInterface({ input: process.stdin })) {
  if (line.trim() === "") continue;
  const d = JSON.parse(line);
  try {
    new Webhook(d.secret).verify(d.body, {
      "webhook-id": d.id,
      "webhook-timestamp": d.timestamp,
      "webhook-signature": d.signature,
    });
    verified++;
  } catch (e) {
    failed.push({ id: d.id, error: String(e) });
  }
}
console.log(JSON.stringify({ verified, failed }));
