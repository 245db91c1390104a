# frozen_string_literal: true

# Run by install_test.go from a directory outside the repository, with the
# gem installed in a fresh GEM_HOME: nothing but the installed gem provides
# Runsvc. It starts and finishes a Run, then rescues Runsvc::Error for a
# BUDGET_EXCEEDED failure (not retryable) and a QUOTA_EXCEEDED one
# (retryable after its delay). RUNSVC_TARGET is a runsvc server;
# RUNSVC_QUOTA_TARGET one whose key scn-key-quota may start one Run a
# minute. It prints one line per check and exits non-zero on a failure.
require "json"
require "runsvc"

def check(what, ok)
  puts "#{ok ? "ok" : "FAIL"}: #{what}"
  exit 1 unless ok
end

def publish(client, spec)
  client.spec.publish_spec(Runsvc::V1::PublishSpecRequest.decode_json(JSON.generate({ spec: spec })))
end

def settle(client, run_id)
  loop do
    run = client.run.wait_run(run_id: run_id, wait: { seconds: 10 }, deadline: 20).run
    return run unless %i[RUN_STATE_QUEUED RUN_STATE_RUNNING].include?(run.state)
  end
end

gem_dir = Gem.loaded_specs.fetch("runsvc").full_gem_path
check "the gem comes from GEM_HOME (#{gem_dir})", gem_dir.start_with?(ENV.fetch("GEM_HOME"))

client = Runsvc::Client.new(ENV.fetch("RUNSVC_TARGET"), deadline: 10)
publish(client, { name: "rb-installed", model: { provider: "scripted", script: { turns: [{ text: "done" }] } } })
run = settle(client, client.run.start_run(spec: "rb-installed", input: "hi").run.run_id)
check "a Run started and finished: #{run.state} #{run.answer.inspect}", run.state == :RUN_STATE_COMPLETED && run.answer == "done"

publish(client, { name: "rb-budget", limits: { tokenBudget: "10" }, tools: [{ name: "memory_set", kind: "TOOL_KIND_BUILTIN" }],
                  model: { provider: "scripted", script: { turns: [
                    { toolCalls: [{ name: "memory_set", arguments: { key: "a", value: 1 } }], usage: { inputTokens: 8, outputTokens: 1 } },
                    { text: "never" }
                  ] } } })
run = settle(client, client.run.start_run(spec: "rb-budget", input: "go").run.run_id)
begin
  raise Runsvc::Error.from(run.failure) if run.state == :RUN_STATE_FAILED

  check "the budget Run failed (#{run.state})", false
rescue Runsvc::Error => e
  check "BUDGET_EXCEEDED is a Runsvc::BudgetExceeded, not retryable: #{e.class} #{e.reason} retryable?=#{e.retryable?} retry_after=#{e.retry_after.inspect}",
        e.is_a?(Runsvc::BudgetExceeded) && e.reason == Runsvc::Reasons::BUDGET_EXCEEDED && !e.retryable? && e.retry_after.nil?
end

quota = Runsvc::Client.new(ENV.fetch("RUNSVC_QUOTA_TARGET"), api_key: "scn-key-quota", deadline: 10)
publish(quota, { name: "rb-quota", model: { provider: "scripted", script: { turns: [{ text: "done" }] } } })
quota.run.start_run(spec: "rb-quota", input: "first")
begin
  quota.run.start_run(spec: "rb-quota", input: "second")
  check "a second start in a minute is refused", false
rescue Runsvc::Error => e
  c = Runsvc.classify(e)
  check "QUOTA_EXCEEDED is a Runsvc::QuotaExceeded, retryable after #{e.retry_after.inspect}s (pushback #{c.pushback})",
        e.is_a?(Runsvc::QuotaExceeded) && e.reason == Runsvc::Reasons::QUOTA_EXCEEDED && e.retryable? &&
        e.retry_after.positive? && e.retry_after <= 60 && c.pushback == c.delay_ms.to_s
  # with_retry waits RetryInfo's delay, and never past its deadline: a
  # 5 s deadline gives up at once on a delay of about a minute.
  attempts = 0
  begin
    Runsvc.with_retry(deadline: 5) { |left| attempts += 1; quota.run.start_run({ spec: "rb-quota", input: "third" }, deadline: left) }
  rescue Runsvc::QuotaExceeded
    check "with_retry(deadline: 5) gives up at once on a #{e.retry_after.round}s delay (#{attempts} attempt)", attempts == 1
  end
end
