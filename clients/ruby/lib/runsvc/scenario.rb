# frozen_string_literal: true

require "json"
require "runsvc/classify"
require "runsvc/services"

module Runsvc
  # Runs testdata/scenarios.json with the generated stubs: a Ruby mirror of
  # internal/testing/scenario (and of clients/python's scenario.py). Steps:
  # call ("Service/Method" in runsvc.v1, request as protojson with ${var},
  # ${suite}, ${repeat:C:N} and "${list:C:N}"), save, until (repeat up to
  # 30 s), sleep, hold (open a server stream, keep it until the scenario
  # ends) and check ("error", or a dotted path to a google.rpc.Status in
  # the last response). A method runsvc.v1 does not declare is called with
  # an empty message. Methods are found by name in the generated services,
  # requests decoded with decode_json.
  module Scenario
    # The ErrorInfo domain every scenario expects.
    DOMAIN = "runsvc"
    # How long an `until` step repeats its call.
    UNTIL_TIMEOUT = 30.0
    # The pause between the calls of an `until` step.
    POLL_INTERVAL = 0.05
    # The deadline of every call.
    CALL_TIMEOUT = 60.0
    # The variable naming the servers a Go test started per server setting.
    SERVERS_ENV = "RUNSVC_SCENARIO_SERVERS"

    # A scenario could not be run to its check (not a wrong status).
    class ScenarioError < StandardError; end

    # The status a scenario produced: its classification, and for an RPC
    # error the wire message and pushback trailer.
    Outcome = Struct.new(:classification, :rpc, :wire_message, keyword_init: true)

    # One reason, provoked: the scenario file's entry as parsed JSON.
    class Case
      attr_reader :name, :reason, :code, :retryable, :metadata_keys, :metadata, :message, :steps, :server, :api_key

      def initialize(h)
        @name = h.fetch("name")
        @reason = h["reason"].to_s
        @code = h["code"].to_s
        @retryable = h["retryable"] ? true : false
        @metadata_keys = h["metadataKeys"] || []
        @metadata = h["metadata"] || {}
        @message = h["message"].to_s
        @steps = h["steps"] || []
        @server = h["server"].to_s
        @api_key = h["apiKey"].to_s
      end

      # Every difference between an outcome and what the scenario expects
      # (empty: it holds).
      def problems(o)
        c = o.classification
        out = []
        out << "code #{c.code}, want #{code}" if c.code != code
        out << "reason #{c.reason.inspect}, want #{reason.inspect}" if c.reason != reason
        out << "domain #{c.domain.inspect}, want #{DOMAIN.inspect}" if c.domain != DOMAIN
        keys = c.metadata.keys.sort
        out << "metadata keys #{keys}, want #{metadata_keys.sort}" if keys != metadata_keys.sort
        metadata.sort.each do |k, v|
          out << "metadata #{k}=#{c.metadata[k].inspect}, want #{v.inspect}" if c.metadata[k] != v
        end
        out << "retryable #{c.retryable}, want #{retryable}" if c.retryable != retryable
        out.concat(message_problems(o))
        out.concat(pushback_problems(o))
      end

      private

      def message_problems(o)
        return [] if message.empty?

        out = []
        out << "message #{o.classification.message.inspect}, want #{message.inspect}" if o.classification.message != message
        out << "grpc-message #{o.wire_message.inspect}, want #{message.inspect}" if o.rpc && o.wire_message != message
        out
      end

      def pushback_problems(o)
        return [] unless o.rpc

        c = o.classification
        want = c.retryable ? c.delay_ms.to_s : "-1"
        c.pushback.to_s == want ? [] : ["pushback trailer #{c.pushback.inspect}, want #{want.inspect}"]
      end
    end

    # The scenario file.
    class File
      attr_reader :specs, :scenarios, :servers

      def self.load(path)
        new(JSON.parse(::File.read(path)))
      end

      def initialize(h)
        @specs = h["specs"] || []
        @scenarios = (h["scenarios"] || []).map { |s| Case.new(s) }
        @servers = h["servers"] || {}
      end
    end

    # The servers a Go test started for the file's server settings:
    # {name => {"addr" => "127.0.0.1:port", "vars" => {...}}}; nil when
    # RUNSVC_SCENARIO_SERVERS is not set.
    def self.servers_from_env
      raw = ENV.fetch(SERVERS_ENV, "")
      raw.empty? ? nil : JSON.parse(raw)
    end

    # Fills ${name} from variables and ${repeat:C:N} with C repeated N
    # times; a JSON string that is exactly "${list:C:N}" becomes an array of
    # N strings "C"; unknown names stay as they are.
    def self.substitute(s, variables)
      s = s.gsub(/"\$\{list:([^}:]*):([0-9]+)\}"/) { "[#{(["\"#{$1}\""] * $2.to_i).join(",")}]" }
      s.gsub(/\$\{([^}]+)\}/) do
        name = $1
        if (m = /\Arepeat:(.*):([0-9]+)\z/.match(name))
          m[1] * m[2].to_i
        else
          variables.fetch(name, "${#{name}}")
        end
      end
    end

    UNITS = { "ns" => 1e-9, "us" => 1e-6, "µs" => 1e-6, "ms" => 1e-3, "s" => 1.0, "m" => 60.0, "h" => 3600.0 }.freeze

    # Parses a Go duration ("1.2s", "500ms", "1m30s") into seconds.
    def self.parse_duration(s)
      return 0.0 if s == "0"

      parts = s.scan(/(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h)/)
      raise ArgumentError, "invalid duration #{s.inspect}" if parts.empty? || parts.map(&:join).join != s

      parts.sum { |n, u| n.to_f * UNITS.fetch(u) }
    end

    # Follows a dotted path through nested hashes; nil when absent.
    def self.lookup(v, path)
      path.split(".").reduce(v) { |cur, part| cur.is_a?(Hash) ? cur[part] : nil }
    end

    # Formats a JSON value as Go's fmt.Sprint does, for `until`.
    def self.go_sprint(v)
      case v
      when nil then "<nil>"
      when true, false then v.to_s
      when Float then v == v.floor && v.abs < 1e21 ? v.to_i.to_s : v.to_s
      when Hash then "map[#{v.keys.sort.map { |k| "#{k}:#{go_sprint(v[k])}" }.join(" ")}]"
      when Array then "[#{v.map { |x| go_sprint(x) }.join(" ")}]"
      else v.to_s
      end
    end
  end
end

require "runsvc/scenario_runner"
