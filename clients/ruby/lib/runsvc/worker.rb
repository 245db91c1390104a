# frozen_string_literal: true

require "grpc"
require "socket"
require "google/protobuf/well_known_types"
require "runsvc/v1/tool_services_pb"

module Runsvc
  # A tool worker: serves worker tools to a runsvc server over
  # ToolService.ServeTools.
  #
  #   upper = ->(args, _call) { args["text"].upcase }
  #   flaky = ->(_args, _call) { raise Runsvc::ToolWorker::Failure.new("boom", retryable: true) }
  #   w = Runsvc::ToolWorker.new("127.0.0.1:50051", { "upper" => upper, "flaky" => flaky })
  #   w.serve_forever            # or w.start ... w.stop
  #
  # The worker sends `register` with its tools, runs every `call` it gets on
  # a pool of max_concurrency threads and answers it with a `result`: the
  # handler's return value as a google.protobuf.Value, or `error {message,
  # retryable}` when it raises (Failure says whether retrying may help; any
  # other exception is not retryable). A `cancel` marks the call cancelled
  # (Call#cancelled?) and drops its result. When the stream drops, the
  # worker reconnects with backoff until stopped; runsvc gives the calls of
  # a vanished worker to another one with the same call_id.
  #
  # The result cache, as in the Python and Node workers: a call can come
  # again with a call_id the worker has seen (runsvc died, or lost the
  # stream, after the call reached the worker, and the Run's next Attempt
  # makes it again). The call_id is the call's idempotency key. The worker
  # remembers the results of the last result_cache_size calls by call_id
  # (4096 by default; 0 turns it off) and answers such a call from there
  # without running the handler again; a call still running when it comes
  # again is answered when its one run ends (a dropped stream does not
  # cancel the calls running on it). A retryable Failure and a cancelled
  # call's result are not remembered: that call runs again. The cache lives
  # in this process: a handler whose side effect must happen once still
  # deduplicates by call.call_id in its own store.
  class ToolWorker
    # Raised by a handler: the call fails with this message; retryable
    # tells the model (and runsvc) whether trying again may succeed.
    class Failure < StandardError
      attr_reader :retryable

      def initialize(message, retryable: false)
        super(message)
        @retryable = retryable
      end
    end

    # A tool this worker serves: handler.call(arguments, call) returns any
    # JSON value or raises Failure. parameters is the arguments' JSON Schema.
    Tool = Struct.new(:name, :handler, :description, :parameters, keyword_init: true)

    # One call as a handler sees it. run_id is empty for InvokeTool;
    # deadline is when runsvc stops waiting (a Time), or nil.
    class Call
      attr_reader :call_id, :name, :arguments, :run_id, :deadline, :outbox

      def initialize(call_id:, name:, arguments:, run_id:, deadline:, outbox:)
        @call_id, @name, @arguments, @run_id, @deadline, @outbox = call_id, name, arguments, run_id, deadline, outbox
        @cancelled = false
      end

      # Whether runsvc withdrew the call (its result is then dropped).
      def cancelled?
        @cancelled
      end

      # Marks the call withdrawn.
      def cancel!
        @cancelled = true
      end
    end

    # One run of a call: result once done; waiters are the outboxes of the
    # same call sent again while it ran.
    Outcome = Struct.new(:done, :result, :waiters)

    CLOSE = Object.new.freeze
    private_constant :CLOSE, :Outcome

    # How many calls runsvc sent (those answered from the cache too), how
    # many times a handler ran, how many times the worker registered.
    attr_reader :received, :runs, :connections, :worker_id, :name, :result_cache_size

    def initialize(target, tools, name: nil, max_concurrency: 16, credentials: :this_channel_is_insecure,
                   api_key: nil, min_backoff: 0.2, max_backoff: 5.0, result_cache_size: 4096)
      tools = tools.map { |n, h| Tool.new(name: n.to_s, handler: h) } if tools.is_a?(Hash)
      @tools = tools.to_h { |t| [t.name, t] }
      raise ArgumentError, "a worker serves at least one tool" if @tools.empty?

      @name = name || "#{Socket.gethostname}-#{Process.pid}-rb"
      @max_concurrency = max_concurrency
      @min_backoff, @max_backoff = min_backoff, max_backoff
      @result_cache_size = result_cache_size
      @stub = V1::ToolService::Stub.new(target, credentials)
      @metadata = api_key ? { "authorization" => "Bearer #{api_key}" } : {}
      @lock = Mutex.new
      @registered = false
      @calls = {}
      @results = {} # call_id => Outcome, oldest first (a Hash keeps insertion order)
      @received = @runs = @connections = 0
      @worker_id = ""
      @stopped = false
      @jobs = Queue.new
      @pool = Array.new(max_concurrency) { Thread.new { work } }
    end

    # Serves in a background thread; returns self at once.
    def start
      @thread = Thread.new { serve_forever }
      self
    end

    # Waits until runsvc acknowledged a registration; false on timeout.
    def wait_registered(timeout = nil)
      deadline = timeout && Time.now + timeout
      until @registered
        return false if deadline && Time.now > deadline

        sleep 0.02
      end
      true
    end

    # Disconnects and stops serving.
    def stop(timeout = 5)
      @stopped = true
      @lock.synchronize { @op }&.cancel
      @thread&.join(timeout) unless Thread.current == @thread
      @jobs.close
      @pool.each { |t| t.join(0.1) }
    end

    # Serves until stop, reconnecting with backoff.
    def serve_forever
      backoff = @min_backoff
      until @stopped
        registered = serve_once
        break if @stopped

        backoff = @min_backoff if registered
        pause(backoff)
        backoff = [backoff * 2, @max_backoff].min
      end
    end

    private

    def pause(seconds)
      deadline = Time.now + seconds
      sleep 0.02 while !@stopped && Time.now < deadline
    end

    def register_message
      reg = V1::ServeToolsRequest::Register.new(worker_name: @name, max_concurrency: @max_concurrency)
      @tools.each_value do |t|
        d = V1::ToolDefinition.new(name: t.name, description: t.description.to_s)
        d.parameters = Google::Protobuf::Struct.from_hash(t.parameters) if t.parameters
        reg.tools << d
      end
      V1::ServeToolsRequest.new(register: reg)
    end

    # One ServeTools stream; returns whether it got registered.
    def serve_once
      outbox = Queue.new
      register = register_message
      requests = Enumerator.new do |y|
        y << register
        loop do
          item = outbox.pop
          break if item.equal?(CLOSE) || item.nil?

          y << item
        end
      end
      registered = false
      op = @stub.serve_tools(requests, metadata: @metadata, return_op: true)
      @lock.synchronize { @op = op }
      op.cancel if @stopped
      begin
        op.execute.each { |msg| registered = true if handle(msg, outbox) == :registered }
      rescue GRPC::BadStatus, GRPC::Core::CallError, StopIteration => e
        warn "runsvc worker #{@name}: stream ended: #{e.class}: #{e.message}" unless @stopped
      ensure
        disconnected(outbox)
      end
      registered
    end

    def handle(msg, outbox)
      case msg.message
      when :registered
        @worker_id = msg.registered.worker_id
        @connections += 1
        @registered = true
        :registered
      when :call then dispatch(msg.call, outbox)
      when :cancel then @lock.synchronize { @calls[msg.cancel.call_id] }&.cancel!
      end
    end

    def disconnected(outbox)
      @registered = false
      outbox << CLOSE
      @lock.synchronize do
        @op = nil
        # The calls of this connection are runsvc's to re-dispatch now.
        # With the cache they keep running: the call sent again gets
        # their result.
        @calls.each_value { |c| c.cancel! if c.outbox.equal?(outbox) } if @result_cache_size.zero?
      end
    end

    def dispatch(msg, outbox)
      call = Call.new(call_id: msg.call_id, name: msg.name, arguments: msg.arguments&.to_h || {},
                      run_id: msg.run_id, deadline: msg.deadline_time&.to_time, outbox: outbox)
      @lock.synchronize do
        @received += 1
        return if answer_again(call.call_id, outbox)

        @calls[call.call_id] = call
        @runs += 1
      end
      @jobs << call
    rescue ClosedQueueError
      @lock.synchronize { @calls.delete(call.call_id) }
    end

    # With the lock held: answers a call seen before from the cache (now,
    # or when its run ends) and reports whether it did; else makes room
    # for the run about to start.
    def answer_again(call_id, outbox)
      return false if @result_cache_size.zero?

      o = @results.delete(call_id)
      if o.nil?
        @results[call_id] = Outcome.new(false, nil, [])
        @results.delete(@results.first[0]) while @results.size > @result_cache_size
        return false
      end
      @results[call_id] = o # now the newest
      if o.done
        outbox << V1::ServeToolsRequest.new(result: o.result)
      else
        o.waiters << outbox
      end
      true
    end

    def work
      while (call = @jobs.pop)
        execute(call)
      end
    end

    def execute(call)
      return if call.cancelled? && !still_wanted(call)

      result = run_handler(call)
      waiters = remember(call, result)
      call.outbox << V1::ServeToolsRequest.new(result: result) unless call.cancelled?
      waiters.each { |w| w << V1::ServeToolsRequest.new(result: result) }
    ensure
      @lock.synchronize { @calls.delete(call.call_id) if @calls[call.call_id].equal?(call) }
    end

    def run_handler(call)
      result = V1::ServeToolsRequest::Result.new(call_id: call.call_id)
      tool = @tools[call.name]
      raise Failure, "this worker does not serve #{call.name}" if tool.nil?

      out = tool.handler.call(call.arguments, call)
      begin
        v = Google::Protobuf::Value.new
        v.from_ruby(out)
        result.output = v
      rescue StandardError => e
        raise Failure, "the result is not JSON: #{e.message}"
      end
      result
    rescue Failure => e
      V1::ServeToolsRequest::Result.new(call_id: call.call_id,
                                        error: V1::ToolError.new(message: e.message, retryable: e.retryable))
    rescue StandardError => e # a handler bug is a non-retryable tool error
      V1::ServeToolsRequest::Result.new(call_id: call.call_id,
                                        error: V1::ToolError.new(message: "#{e.class}: #{e.message}", retryable: false))
    end

    # A call cancelled before it ran: whether the same call, sent again,
    # waits for it (then it runs); else it leaves the cache.
    def still_wanted(call)
      @lock.synchronize do
        o = @results[call.call_id]
        return true if o && !o.waiters.empty?

        @results.delete(call.call_id) if o && !o.done
        false
      end
    end

    # Stores a run's result for the call sent again, and returns the
    # outboxes waiting for it.
    def remember(call, result)
      @lock.synchronize do
        o = @results[call.call_id]
        return [] if o.nil? || o.done

        o.done = true
        o.result = result
        waiters = o.waiters
        o.waiters = []
        @results.delete(call.call_id) if call.cancelled? || result.error&.retryable
        waiters
      end
    end
  end
end
