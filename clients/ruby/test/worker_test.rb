# frozen_string_literal: true

# The Ruby tool worker against a real runsvc: tools called from a Run,
# their errors classified, and the result cache answering a call that
# runsvc sends again after a kill -9.
require_relative "support"
require "json"

module WorkerHelpers
  SETTLED = %i[RUN_STATE_COMPLETED RUN_STATE_FAILED RUN_STATE_ABORTED RUN_STATE_ABANDONED].freeze

  def wait_for_tools(client, names, timeout: 15)
    deadline = Time.now + timeout
    loop do
      seen = client.tool.list_tools.tools.to_h { |t| [t.name, t.workers] }
      return if names.all? { |n| seen.fetch(n, 0) >= 1 }
      raise "workers for #{names} never connected; ListTools shows #{seen}" if Time.now > deadline

      sleep 0.05
    end
  end

  def wait_settled(client, run_id, timeout: 60)
    deadline = Time.now + timeout
    loop do
      run = client.run.wait_run(run_id: run_id, wait: { seconds: 5 }, deadline: 10).run
      return run if SETTLED.include?(run.state)
      raise "run #{run_id} never settled: #{run.state}" if Time.now > deadline
    end
  end

  # The ToolCallFinished records of a Run, by tool name.
  def finished_calls(client, run_id)
    client.run.watch_run({ run_id: run_id }, deadline: 20).each_with_object({}) do |m, out|
      f = m.record.tool_call_finished
      out[f.name] = f if m.record.body == :tool_call_finished
    end
  end

  def publish(client, spec)
    client.spec.publish_spec(Runsvc::V1::PublishSpecRequest.decode_json(JSON.generate({ spec: spec })))
  end
end

class WorkerTest < Minitest::Test
  include WorkerHelpers

  def setup
    @server = Support::Server.new.start
    @client = Runsvc::Client.new(@server.addr, deadline: 10)
  end

  def teardown
    @worker&.stop
    @server.stop
  end

  def test_a_run_calls_ruby_tools_and_classifies_their_errors
    @worker = Runsvc::ToolWorker.new(@server.addr, {
                                       "rb_upper" => ->(args, _call) { args["text"].upcase },
                                       "rb_fail" => ->(_args, _call) { raise Runsvc::ToolWorker::Failure.new("boom", retryable: true) }
                                     }, name: "rb-test-worker").start
    wait_for_tools(@client, %w[rb_upper rb_fail])
    publish(@client, { name: "rb-worker", tools: [{ name: "rb_upper", kind: "TOOL_KIND_WORKER" }, { name: "rb_fail", kind: "TOOL_KIND_WORKER" }],
                       model: { provider: "scripted", script: { turns: [
                         { toolCalls: [{ name: "rb_upper", arguments: { text: "hello" } }] },
                         { toolCalls: [{ name: "rb_fail", arguments: {} }] }, { text: "done" }
                       ] } } })
    run = wait_settled(@client, @client.run.start_run(spec: "rb-worker", input: "shout").run.run_id)
    assert_equal :RUN_STATE_COMPLETED, run.state, Runsvc.classify_status(run.failure).inspect
    assert_equal "done", run.answer

    calls = finished_calls(@client, run.run_id)
    assert_equal "HELLO", calls.fetch("rb_upper").output.to_ruby
    c = Runsvc.classify_status(calls.fetch("rb_fail").error)
    assert_equal ["UNAVAILABLE", "TOOL_FAILED", "runsvc", true, "rb_fail"], [c.code, c.reason, c.domain, c.retryable, c.metadata["tool"]]
    assert_includes c.message, "boom"
    assert_kind_of Runsvc::ToolError, Runsvc::Error.from(calls.fetch("rb_fail").error)
  end

  def test_an_unknown_tool_is_a_runsvc_tool_error
    err = assert_raises(Runsvc::ToolError) { @client.tool.invoke_tool(name: "rb_nobody") }
    assert_equal ["NOT_FOUND", "TOOL_NOT_FOUND", false, nil, "-1"],
                 [err.code, err.reason, err.retryable?, err.retry_after, err.classification.pushback]
  end
end

# Runsvc is killed (SIGKILL) while a worker call runs; the Run's next
# Attempt sends the call again with the same call_id, and the worker
# answers it from its cache: the handler runs once. Without the cache
# (result_cache_size: 0) it runs again.
class ResultCacheTest < Minitest::Test
  include WorkerHelpers

  def setup
    @server = Support::Server.new(env: { "RUNSVC_LEASE_TTL" => "1s" }).start
  end

  def teardown
    @worker&.stop
    @server.stop
  end

  def test_a_call_sent_again_is_answered_from_the_cache
    ran, output = call_through_a_kill(4096)
    assert_equal 1, ran.size, "the handler ran for #{ran}"
    assert_equal ["run 1", 1, 2], [output, @worker.runs, @worker.received]
    assert_includes ran[0], "/", "the call_id is the idempotency key, run id / call id"
  end

  def test_without_the_cache_the_call_runs_again
    ran, output = call_through_a_kill(0)
    assert_equal [ran[0], ran[0]], ran, "the call should run twice, with one call_id"
    assert_equal ["run 2", 2], [output, @worker.runs]
  end

  private

  # One Run's call to a tool whose first run holds until runsvc was
  # killed, restarted and sent the call again; returns the call ids the
  # handler ran for and the call's recorded output.
  def call_through_a_kill(cache_size)
    ran = []
    release = Queue.new
    name = "rb_once_#{cache_size}"
    handler = lambda do |_args, call|
      ran << call.call_id
      n = ran.size
      release.pop if n == 1
      "run #{n}"
    end
    @worker = Runsvc::ToolWorker.new(@server.addr, { name => handler }, name: name, min_backoff: 0.1, max_backoff: 0.5,
                                                                        result_cache_size: cache_size).start
    assert @worker.wait_registered(10)
    client = Runsvc::Client.new(@server.addr, deadline: 10)
    publish(client, { name: name, tools: [{ name: name, kind: "TOOL_KIND_WORKER" }], limits: { transientRetryBudget: 100 },
                      model: { provider: "scripted", script: { turns: [{ toolCalls: [{ name: name, arguments: {} }] }, { text: "done" }] } } })
    run_id = client.run.start_run(spec: name, input: "go").run.run_id
    wait_until(30, "the call never reached the worker") { ran.size >= 1 }

    @server.kill(graceful: false)
    @server.start
    client = Runsvc::Client.new(@server.addr, deadline: 10)
    wait_until(30, "the call was never sent again") { @worker.received >= 2 }
    release << true

    run = wait_settled(client, run_id)
    assert_equal :RUN_STATE_COMPLETED, run.state, Runsvc.classify_status(run.failure).inspect
    [ran, finished_calls(client, run_id).fetch(name).output.to_ruby]
  ensure
    release << true
  end

  def wait_until(seconds, what)
    deadline = Time.now + seconds
    until yield
      flunk what if Time.now > deadline
      sleep 0.05
    end
  end
end
