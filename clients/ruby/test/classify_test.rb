# frozen_string_literal: true

# classify, classify_status, the error families and with_retry, on
# statuses built here (the scenario suite checks them over the wire).
require_relative "support"

class ClassifyTest < Minitest::Test
  def status(code, reason, delay: nil, metadata: {})
    details = [Google::Protobuf::Any.pack(Google::Rpc::ErrorInfo.new(reason: reason, domain: "runsvc", metadata: metadata))]
    if delay
      ri = Google::Rpc::RetryInfo.new(retry_delay: Google::Protobuf::Duration.new(seconds: delay.to_i, nanos: ((delay % 1) * 1e9).round))
      details << Google::Protobuf::Any.pack(ri)
    end
    Google::Rpc::Status.new(code: code, message: "#{reason} happened", details: details)
  end

  def test_classify_status_reads_error_info_and_retry_info_never_the_message
    c = Runsvc.classify_status(status(8, "QUOTA_EXCEEDED", delay: 1.5, metadata: { "tenant" => "t" }))
    assert_equal ["RESOURCE_EXHAUSTED", "QUOTA_EXCEEDED", "runsvc", { "tenant" => "t" }, true, 1.5, 1500],
                 [c.code, c.reason, c.domain, c.metadata, c.retryable, c.delay, c.delay_ms]
    c = Runsvc.classify_status(status(8, "BUDGET_EXCEEDED"))
    assert_equal [false, nil], [c.retryable, c.delay]
    c = Runsvc.classify_status(Google::Rpc::Status.new(code: 14, message: "retry in 5s, QUOTA_EXCEEDED"))
    assert_equal ["UNAVAILABLE", nil, false], [c.code, c.reason, c.retryable]
    assert_equal "OK", Runsvc.classify_status(nil).code
  end

  def test_an_rpc_error_classifies_from_its_trailers
    st = status(8, "QUOTA_EXCEEDED", delay: 2)
    e = GRPC::ResourceExhausted.new("quota", { "grpc-status-details-bin" => Google::Rpc::Status.encode(st),
                                               "grpc-retry-pushback-ms" => "2000" })
    c = Runsvc.classify(e)
    assert_equal ["QUOTA_EXCEEDED", true, 2.0, "2000"], [c.reason, c.retryable, c.delay, c.pushback]
    c = Runsvc.classify(GRPC::Unavailable.new("proxy"))
    assert_equal ["UNAVAILABLE", nil, false, nil], [c.code, c.reason, c.retryable, c.pushback]
  end

  def test_every_reason_raises_its_family
    { "BUDGET_EXCEEDED" => Runsvc::BudgetExceeded, "INFERENCE_FAILED" => Runsvc::InferenceError,
      "TOOL_FAILED" => Runsvc::ToolError, "AWAIT_TIMEOUT" => Runsvc::AwaitTimeout,
      "QUOTA_EXCEEDED" => Runsvc::QuotaExceeded, "RUN_NOT_FOUND" => Runsvc::NotFound }.each do |reason, family|
      assert_instance_of family, Runsvc::Error.from(status(8, reason)), reason
    end
    Runsvc::Reasons::ALL.each do |r|
      assert_operator Runsvc::FAMILIES.fetch(r), :<, Runsvc::Error, r
    end
    assert_instance_of Runsvc::Unavailable, Runsvc::Error.from(status(14, "SOME_NEWER_REASON")), "an unknown reason goes by its code"
    assert_instance_of Runsvc::Error, Runsvc::Error.from(Google::Rpc::Status.new(code: 4)), "no ErrorInfo: the base class"
  end

  def test_the_readme_documents_every_family
    readme = File.expand_path("../README.md", __dir__)
    skip "the README is checked in the source tree" if ENV["RUNSVC_RB_INSTALLED"] == "1" || !File.exist?(readme)

    documented = File.read(readme).scan(/^\| `(\w+)` \| ([A-Z_, ]+) \|$/).to_h do |family, reasons|
      [family, reasons.split(", ")]
    end
    want = Runsvc::FAMILIES.group_by { |_, f| f.name.delete_prefix("Runsvc::") }.transform_values { |v| v.map(&:first) }
    assert_equal want, documented, "clients/ruby/README.md's family table differs from lib/runsvc/reasons.rb (make catalogue)"
  end

  def test_retryable_and_retry_after_come_from_the_status
    e = Runsvc::Error.from(status(8, "QUOTA_EXCEEDED", delay: 3))
    assert_equal [true, 3.0], [e.retryable?, e.retry_after]
    e = Runsvc::Error.from(status(8, "BUDGET_EXCEEDED"))
    assert_equal [false, nil], [e.retryable?, e.retry_after]
  end

  def test_with_retry_waits_retry_info_within_the_deadline
    now = 0.0
    clock = -> { now }
    slept = []
    sleeper = ->(d) { slept << d; now += d }
    calls = 0
    got = Runsvc.with_retry(deadline: 10, sleep: sleeper, clock: clock) do |left|
      calls += 1
      raise Runsvc::Error.from(status(8, "QUOTA_EXCEEDED", delay: 2)) if calls < 3

      left
    end
    assert_equal [3, [2.0, 2.0], 6.0], [calls, slept, got]

    calls = 0
    assert_raises(Runsvc::BudgetExceeded) do
      Runsvc.with_retry(deadline: 10, sleep: sleeper, clock: clock) { calls += 1; raise Runsvc::Error.from(status(8, "BUDGET_EXCEEDED")) }
    end
    assert_equal 1, calls, "a non-retryable error is raised at once"

    calls = 0
    assert_raises(Runsvc::QuotaExceeded) do
      Runsvc.with_retry(deadline: 1, sleep: sleeper, clock: clock) { calls += 1; raise Runsvc::Error.from(status(8, "QUOTA_EXCEEDED", delay: 2)) }
    end
    assert_equal 1, calls, "a delay past the deadline is not waited"
  end

  def test_the_client_has_a_handle_per_generated_service
    c = Runsvc::Client.new("127.0.0.1:1")
    Runsvc.services.each_key { |name| assert_same c[name], c.public_send(Runsvc.handle_name(name)) }
    assert_operator Runsvc.services.size, :>=, 6
    assert_respond_to c.run, :start_run
    c.close
  end
end
