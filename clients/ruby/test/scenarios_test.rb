# frozen_string_literal: true

# Runs testdata/scenarios.json against a real runsvc through the Ruby
# stubs: each scenario checks code, reason, domain, metadata keys,
# retryability and, for RPC errors, the pushback trailer. With
# RUNSVC_TARGET=host:port the scenarios run against that server
# (ruby_test.go puts nginx and HAProxy in front of one); a scenario naming a
# server setting runs on the server RUNSVC_SCENARIO_SERVERS gives for it.
require_relative "support"
require "runsvc/scenario"
require "securerandom"

class ScenariosTest < Minitest::Test
  S = Runsvc::Scenario

  def self.results
    @results ||= run_all
  end

  def self.run_all
    target = ENV["RUNSVC_TARGET"].to_s
    if target.empty?
      server = Support::Server.new.start
      Minitest.after_run { server.stop }
      target = server.addr
    end
    file = S::File.load(Support::SCENARIOS)
    suite = "rb-#{SecureRandom.hex(6)}"
    runners = { "" => S::Runner.new(target, suite: suite) }
    runners[""].setup(file)
    (S.servers_from_env || {}).each do |name, started|
      runners[name] = S::Runner.new(started["addr"], suite: suite, variables: started["vars"])
    end
    # The scenarios are independent: run them all at once, like the Go
    # runner's parallel subtests.
    threads = file.scenarios.map do |s|
      Thread.new do
        r = runners[s.server]
        r ? [s, r.run(s), nil] : [s, nil, nil]
      rescue StandardError => e
        [s, nil, e]
      end
    end
    [file, threads.map(&:value)]
  end

  def test_every_scenario_passes
    file, results = self.class.results
    refute_empty file.scenarios, "the scenarios file has no scenarios"
    failures = []
    skipped = []
    passed = 0
    results.each do |s, outcome, err|
      if outcome.nil? && err.nil?
        skipped << s.name
        next
      end
      problems = err ? ["could not run: #{err.class}: #{err.message}"] : s.problems(outcome)
      if problems.empty?
        passed += 1
      else
        failures << "#{s.name} (#{s.reason}): #{problems.join("; ")}#{got(outcome)}"
      end
    end
    puts "scenarios: #{passed} passed, #{failures.size} failed, #{skipped.size} without a server, of #{results.size}"
    assert_empty failures, failures.join("\n")
    return if skipped.empty?

    msg = "server settings without a server (#{S::SERVERS_ENV}): #{skipped.join(", ")}"
    flunk msg if Support.require_all? || S.servers_from_env
    skip "skipped: #{msg} (run through go test ./clients/ruby)"
  end

  def test_every_server_setting_has_a_server
    servers = S.servers_from_env
    if servers.nil?
      flunk "RUNSVC_REQUIRE_ALL=1 but #{S::SERVERS_ENV} is not set" if Support.require_all?
      skip "skipped: #{S::SERVERS_ENV} not set (run through go test ./clients/ruby)"
    end
    assert_equal S::File.load(Support::SCENARIOS).servers.keys.sort, servers.keys.sort
  end

  private

  def got(outcome)
    return "" if outcome.nil?

    c = outcome.classification
    "\n  got: #{c.code} reason=#{c.reason.inspect} domain=#{c.domain.inspect} metadata=#{c.metadata} " \
      "retryable=#{c.retryable} delay=#{c.delay.inspect} pushback=#{c.pushback.inspect} message=#{c.message.inspect}"
  end
end
