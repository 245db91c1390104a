# frozen_string_literal: true

require "runsvc/classify"

module Runsvc
  # The one class to rescue for every runsvc failure. Its subclasses are
  # the reason families (Runsvc::InferenceError, Runsvc::ToolError,
  # Runsvc::BudgetExceeded, Runsvc::AwaitTimeout, ...; see reasons.rb),
  # picked from the status's ErrorInfo reason, or from its code for a
  # reason this version does not know. A failure without ErrorInfo (the
  # caller's own deadline, a proxy's error) is a Runsvc::Error itself.
  #
  # Everything it answers comes from the google.rpc.Status: retryable? is
  # whether RetryInfo is present, retry_after its delay; never the message.
  class Error < StandardError
    # The Runsvc::Classification of the failure.
    attr_reader :classification

    # Builds the error of the right family for a classification.
    def self.for(classification, cause: nil)
      family = FAMILIES[classification.reason] if classification.reason
      family ||= CODE_FAMILIES[classification.code] if classification.reason
      (family || Error).new(classification, cause: cause)
    end

    # Builds the error of an RPC error (a GRPC::BadStatus) or a status
    # (a Google::Rpc::Status, e.g. a Run's failure).
    def self.from(error_or_status)
      if error_or_status.is_a?(Google::Rpc::Status)
        self.for(Runsvc.classify_status(error_or_status))
      else
        self.for(Runsvc.classify(error_or_status), cause: error_or_status)
      end
    end

    def initialize(classification, cause: nil)
      @classification = classification
      @grpc_cause = cause
      super("#{classification.code}#{classification.reason ? " #{classification.reason}" : ""}: #{classification.message}")
    end

    # The Google::Rpc::Status.
    def status
      classification.status
    end

    # The ErrorInfo reason, e.g. "BUDGET_EXCEEDED"; nil without ErrorInfo.
    def reason
      classification.reason
    end

    # The code's name, e.g. "RESOURCE_EXHAUSTED".
    def code
      classification.code
    end

    # The ErrorInfo metadata ({} without ErrorInfo).
    def metadata
      classification.metadata
    end

    # Whether a retry may succeed: the status carries RetryInfo.
    def retryable?
      classification.retryable
    end

    # Seconds to wait before retrying (RetryInfo's delay); nil when not
    # retryable.
    def retry_after
      classification.delay
    end

    # The GRPC::BadStatus this error was raised for, if any.
    def grpc_error
      @grpc_cause
    end
  end
end
