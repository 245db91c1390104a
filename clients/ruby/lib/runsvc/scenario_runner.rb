# frozen_string_literal: true

module Runsvc
  module Scenario
    # Runs scenarios over one server.
    class Runner
      Method = Struct.new(:stub, :name, :desc)

      # target:: "host:port"; suite:: the ${suite} value; variables:: the
      # server setting's variables.
      def initialize(target, suite:, variables: {})
        @target = target
        @suite = suite
        @variables = variables || {}
        @stubs = {}
        @raw = GRPC::ClientStub.new(target, :this_channel_is_insecure)
        @lock = Mutex.new
      end

      # Publishes the file's Specs.
      def setup(file)
        file.specs.each do |spec|
          _, err = call("SpecService/PublishSpec", JSON.generate({ "spec" => spec }), {})
          raise ScenarioError, "publishing #{spec["name"]}: #{err.code}: #{err.details}" if err
        end
      end

      # Runs a scenario's steps and returns the Outcome its check names;
      # the streams its steps hold are cancelled when it ends.
      def run(scenario)
        held = []
        run_steps(scenario, held)
      ensure
        held.each { |op| op.cancel rescue nil }
      end

      # Invokes a runsvc.v1 method with a protojson request. Returns
      # [response as a Hash, nil] or [nil, GRPC::BadStatus]; a server
      # stream is read to its end and its last message kept.
      def call(name, request_json, metadata)
        m = method_of(name)
        return raw_call(name, metadata) if m.nil?

        req = parse(m, request_json)
        opts = { metadata: metadata, deadline: Time.now + CALL_TIMEOUT }
        out = m.desc.output
        out = out.type if out.is_a?(GRPC::RpcDesc::Stream)
        resp = out.new
        if m.desc.server_streamer?
          m.stub.public_send(m.name, req, **opts).each { |r| resp = r }
        else
          resp = m.stub.public_send(m.name, req, **opts)
        end
        [JSON.parse(out.encode_json(resp)), nil]
      rescue GRPC::BadStatus => e
        [nil, e]
      end

      # Opens a server stream and returns its operation once the first
      # message came; the caller cancels it.
      def hold(name, request_json, metadata)
        m = method_of(name)
        raise ScenarioError, "hold needs a server stream; #{name} is not one" unless m&.desc&.server_streamer?

        op = m.stub.public_send(m.name, parse(m, request_json), metadata: metadata,
                                                                  deadline: Time.now + CALL_TIMEOUT, return_op: true)
        first = Queue.new
        Thread.new do
          op.execute.each { |r| first << r }
          first << :end
        rescue StandardError => e
          first << e
        end
        got = first.pop
        if got.is_a?(Exception) || got == :end
          op.cancel
          raise got.is_a?(Exception) ? got : ScenarioError.new("#{name} ended before its first message")
        end
        op
      end

      private

      def method_of(name)
        svc, meth = name.split("/", 2)
        raise ScenarioError, "call #{name.inspect} is not Service/Method" if svc.to_s.empty? || meth.to_s.empty?

        service = Runsvc.services[svc] or raise ScenarioError, "no service runsvc.v1.#{svc}"
        desc = service.const_get(:Service).rpc_descs[meth.to_sym]
        return nil if desc.nil?

        stub = @lock.synchronize { @stubs[svc] ||= service.const_get(:Stub).new(@target, :this_channel_is_insecure) }
        Method.new(stub, GRPC::GenericService.underscore(meth).to_sym, desc)
      end

      def raw_call(name, metadata)
        @raw.request_response("/runsvc.v1.#{name}", "", ->(s) { s }, ->(s) { s },
                              metadata: metadata, deadline: Time.now + CALL_TIMEOUT)
        [{}, nil]
      rescue GRPC::BadStatus => e
        [nil, e]
      end

      def parse(m, request_json)
        m.desc.input.decode_json(request_json)
      rescue Google::Protobuf::ParseError => e
        raise ScenarioError, "request #{request_json[0, 200]}: #{e.message}"
      end

      def run_steps(s, held)
        variables = { "suite" => @suite }.merge(@variables)
        metadata = s.api_key.empty? ? {} : { "authorization" => "Bearer #{s.api_key}" }
        last = nil
        s.steps.each_with_index do |step, i|
          if step["sleep"]
            sleep Scenario.parse_duration(step["sleep"])
            next
          end
          name = step["call"].to_s
          check = step["check"].to_s
          return status_at(last, check) if name.empty?

          req = Scenario.substitute(JSON.generate(step["request"] || {}), variables)
          if step["hold"]
            held << hold_step(i, name, req, metadata)
            next
          end
          outcome, last = call_step(i, step, name, req, metadata, check)
          return outcome if outcome

          save(i, step, last, variables)
          return status_at(last, check) unless check.empty?
        end
        raise ScenarioError, "the scenario has no check step"
      end

      def hold_step(i, name, req, metadata)
        hold(name, req, metadata)
      rescue GRPC::BadStatus => e
        raise ScenarioError, "step #{i} (holding #{name}): #{e.code}: #{e.details}"
      end

      # One call step, repeated until its `until` holds: [outcome, nil] for
      # a check of its error, [nil, response] otherwise.
      def call_step(i, step, name, req, metadata, check)
        deadline = now + UNTIL_TIMEOUT
        loop do
          resp, err = call(name, req, metadata)
          if check == "error"
            raise ScenarioError, "step #{i} (#{name}) succeeded; the scenario expects an error" if err.nil?

            return [Outcome.new(classification: Runsvc.classify(err), rpc: true, wire_message: err.details.to_s), nil]
          end
          raise ScenarioError, "step #{i} (#{name} #{req[0, 200]}): #{err.code}: #{err.details}" if err
          return [nil, resp] if matches(resp, step["until"])
          raise ScenarioError, "step #{i} (#{name}): #{step["until"]} never held; last response #{resp}" if now > deadline

          sleep POLL_INTERVAL
        end
      end

      def save(i, step, last, variables)
        (step["save"] || {}).each do |var, path|
          v = Scenario.lookup(last, path)
          raise ScenarioError, "step #{i}: no string at #{path} in #{last}" unless v.is_a?(String)

          variables[var] = v
        end
      end

      def matches(resp, until_)
        (until_ || {}).all? { |path, want| Scenario.go_sprint(Scenario.lookup(resp, path)) == want }
      end

      def status_at(resp, path)
        v = Scenario.lookup(resp, path)
        raise ScenarioError, "no status at #{path} in #{resp}" if v.nil?

        st = Google::Rpc::Status.decode_json(JSON.generate(v))
        Outcome.new(classification: Runsvc.classify_status(st), rpc: false, wire_message: "")
      rescue Google::Protobuf::ParseError => e
        raise ScenarioError, "the value at #{path} is not a google.rpc.Status: #{e.message}"
      end

      def now
        Process.clock_gettime(Process::CLOCK_MONOTONIC)
      end
    end
  end
end
