# frozen_string_literal: true

require "grpc"
require "runsvc/error"
require "runsvc/services"

module Runsvc
  # A client of a runsvc server over one channel, with a handle per
  # service the generated code declares (found in Runsvc::V1, so a service
  # added to the protos appears after clients/ruby/generate.sh):
  #
  #   c = Runsvc::Client.new("127.0.0.1:50051", api_key: ENV["RUNSVC_API_KEY"])
  #   run = c.run.start_run(spec: "triage", input: "hello").run
  #   c.run.wait_run(run_id: run.run_id, wait: {seconds: 10})
  #
  # A handle's methods are the stub's (snake_case); each takes the request
  # message, a Hash of its fields, or the fields as keywords, and deadline:
  # (seconds; the client's default otherwise) and metadata: (a field named
  # deadline or metadata goes in the Hash or message). A failure raises a Runsvc::Error of
  # its reason's family. A server stream returns an Enumerator of
  # responses; ServeTools (bidirectional) is the raw stub's
  # (see Runsvc::ToolWorker).
  class Client
    # The GRPC::ClientStub of each service, by service name ("RunService").
    attr_reader :stubs

    # target:: "host:port"
    # tls:: true for TLS, verified against root_certs (PEM; the system's
    #       roots when nil); insecure otherwise
    # credentials:: a GRPC::Core::ChannelCredentials, instead of tls:
    # api_key:: sent as "authorization: Bearer <key>" on every call
    # deadline:: the default deadline of a call, in seconds (nil: none)
    def initialize(target, tls: false, root_certs: nil, credentials: nil, api_key: nil, deadline: nil, channel_args: {})
      creds = credentials || (tls ? GRPC::Core::ChannelCredentials.new(root_certs) : :this_channel_is_insecure)
      @channel = GRPC::Core::Channel.new(target, channel_args, creds)
      @metadata = api_key ? { "authorization" => "Bearer #{api_key}" } : {}
      @deadline = deadline
      @stubs = {}
      @handles = {}
      Runsvc.services.each { |name, service| add_service(target, name, service) }
    end

    # The handle of a service by its name, e.g. client["RunService"].
    def [](service_name)
      @handles.fetch(service_name.to_s)
    end

    # The metadata and deadline of one call: the client's, with the
    # call's own added.
    def call_options(deadline, metadata)
      seconds = deadline.nil? ? @deadline : deadline
      opts = { metadata: @metadata.merge(metadata || {}) }
      opts[:deadline] = Time.now + seconds if seconds
      opts
    end

    # Closes the channel.
    def close
      @channel.close
    end

    private

    # Binds a stub of the service to the channel and defines its accessor.
    def add_service(target, name, service)
      stub = service.const_get(:Stub).new(target, :this_channel_is_insecure, channel_override: @channel)
      handle = Handle.new(stub, service.const_get(:Service), self)
      @stubs[name] = stub
      @handles[name] = handle
      define_singleton_method(Runsvc.handle_name(name)) { handle }
    end

    # One service's calls, each raising Runsvc::Error on failure.
    class Handle
      # The generated stub itself, for what the handle does not wrap.
      attr_reader :stub

      def initialize(stub, service, client)
        @stub = stub
        service.rpc_descs.each do |name, desc|
          method = GRPC::GenericService.underscore(name.to_s).to_sym
          define_singleton_method(method) do |request = nil, deadline: nil, metadata: nil, **fields, &block|
            invoke(method, desc, request || fields, client.call_options(deadline, metadata), &block)
          end
        end
      end

      private

      # Calls a stub method, turning a GRPC::BadStatus into a Runsvc::Error.
      def invoke(method, desc, request, opts, &block)
        return @stub.public_send(method, request, **opts, &block) if desc.client_streamer? || desc.bidi_streamer?

        req = request.is_a?(Hash) ? desc.input.new(**request) : request
        return stream(@stub.public_send(method, req, **opts)) if desc.server_streamer?

        @stub.public_send(method, req, **opts)
      rescue GRPC::BadStatus => e
        raise Error.from(e)
      end

      # An Enumerator over a server stream whose failure is a Runsvc::Error.
      def stream(responses)
        Enumerator.new do |y|
          responses.each { |r| y << r }
        rescue GRPC::BadStatus => e
          raise Error.from(e)
        end
      end
    end
  end
end
