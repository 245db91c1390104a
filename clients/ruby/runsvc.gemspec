# frozen_string_literal: true

# The runsvc client gem: gem build runsvc.gemspec, then gem install the
# .gem (offline: --local). Its version is the error catalogue's.
version = File.read(File.join(__dir__, "lib", "runsvc", "reasons.rb"))[/CATALOGUE_VERSION = "([^"]+)"/, 1]

Gem::Specification.new do |s|
  s.name = "runsvc"
  s.version = version
  s.summary = "A client of runsvc: every service, classify, error families, retry and a tool worker"
  s.description = "Runsvc::Client over the runsvc.v1 gRPC services, Runsvc.classify of a failure's " \
                  "google.rpc.Status (ErrorInfo, RetryInfo), a Runsvc::Error subclass per reason family, " \
                  "Runsvc.with_retry and Runsvc::ToolWorker."
  s.authors = ["runsvc"]
  s.license = "Apache-2.0"
  s.homepage = "https://github.com/runsvc/runsvc"
  s.required_ruby_version = ">= 3.0"
  s.files = Dir[File.join(__dir__, "lib", "**", "*.rb")].map { |f| f.delete_prefix("#{__dir__}/") }.sort + ["README.md"]
  s.require_paths = ["lib"]
  s.add_runtime_dependency "google-protobuf", ">= 3.19"
  s.add_runtime_dependency "googleapis-common-protos-types", ">= 1.0"
  s.add_runtime_dependency "grpc", ">= 1.40"
end
