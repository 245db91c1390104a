# frozen_string_literal: true

# Shared fixtures of the Ruby suite: the runsvc binary and servers.
# RUNSVC_BIN names the binary (ruby_test.go builds one); servers listen
# on 127.0.0.1 on a free port with a fresh data directory. The gem comes
# from lib/ unless RUNSVC_RB_INSTALLED=1 (the installed-gem test).
$LOAD_PATH.unshift(File.expand_path("../lib", __dir__)) unless ENV["RUNSVC_RB_INSTALLED"] == "1"

require "fileutils"
require "minitest/autorun"
require "socket"
require "tmpdir"
require "runsvc"

# Where the suite finds the repository's files.
module Support
  REPO = ENV.fetch("RUNSVC_REPO") { File.expand_path("../../..", __dir__) }
  SCENARIOS = File.join(REPO, "testdata", "scenarios.json")
  POLICY = File.join(REPO, "testdata", "policy.json")

  # RUNSVC_REQUIRE_ALL=1 turns skips for missing pieces into failures.
  def self.require_all?
    ENV["RUNSVC_REQUIRE_ALL"] == "1"
  end

  def self.free_port
    s = TCPServer.new("127.0.0.1", 0)
    s.addr[1]
  ensure
    s&.close
  end

  # A runsvc serve subprocess on 127.0.0.1.
  class Server
    attr_reader :addr, :dir

    def initialize(env: {})
      @bin = ENV.fetch("RUNSVC_BIN") { raise "RUNSVC_BIN is not set (run through go test ./clients/ruby)" }
      @env = env
      @dir = Dir.mktmpdir("runsvc-rb-")
      @addr = "127.0.0.1:#{Support.free_port}"
      @pid = nil
    end

    # Starts the server and waits until a call answers.
    def start(timeout: 30)
      log = File.join(@dir, "server.log")
      @pid = Process.spawn(@env, @bin, "serve", "--listen", @addr, "--data", File.join(@dir, "data"),
                           "--policy-file", POLICY, "--log-format", "text",
                           out: [log, "a"], err: [:child, :out], in: File::NULL, chdir: @dir)
      deadline = Time.now + timeout
      client = Runsvc::Client.new(@addr, deadline: 1)
      loop do
        begin
          client.spec.list_specs
          return self
        rescue Runsvc::Error, GRPC::BadStatus
          raise "runsvc did not start on #{@addr}:\n#{log_tail}" if Time.now > deadline

          sleep 0.05
        end
      end
    end

    # Stops the process, keeping the data: SIGKILL at once unless graceful.
    def kill(graceful: true)
      pid, @pid = @pid, nil
      return if pid.nil?

      Process.kill(graceful ? "TERM" : "KILL", pid)
      Process.wait(pid)
    rescue Errno::ESRCH, Errno::ECHILD
      nil
    end

    # Kills the server and removes its data.
    def stop
      kill
      FileUtils.rm_rf(@dir)
    end

    def log_tail(n = 40)
      File.readlines(File.join(@dir, "server.log")).last(n).join
    rescue Errno::ENOENT
      "(no log)"
    end
  end
end
