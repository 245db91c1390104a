# frozen_string_literal: true

# Every generated service of runsvc.v1 (lib/runsvc/v1/*_services_pb.rb).
Dir[File.join(__dir__, "v1", "*_services_pb.rb")].sort.each do |f|
  require "runsvc/v1/#{File.basename(f, ".rb")}"
end

module Runsvc
  class << self
    # The generated service modules (Runsvc::V1::RunService, ...) by
    # service name ("RunService").
    def services
      @services ||= V1.constants.sort.each_with_object({}) do |c, out|
        mod = V1.const_get(c)
        next unless mod.is_a?(Module) && mod.const_defined?(:Service, false) && mod.const_defined?(:Stub, false)

        out[c.to_s] = mod
      end
    end

    # The client's accessor of a service: "RunService" is client.run,
    # "DelegationService" client.delegation.
    def handle_name(service_name)
      GRPC::GenericService.underscore(service_name.sub(/Service\z/, ""))
    end
  end
end
