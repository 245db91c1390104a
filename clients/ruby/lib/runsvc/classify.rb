# frozen_string_literal: true

require "grpc"
require "google/protobuf"
require "google/protobuf/well_known_types"
require "google/rpc/status_pb"
require "google/rpc/error_details_pb"

module Runsvc
  # The trailer holding the serialized google.rpc.Status of an RPC error.
  STATUS_DETAILS_TRAILER = "grpc-status-details-bin"
  # The trailer a retryable error sets to its delay in ms (-1 otherwise).
  PUSHBACK_TRAILER = "grpc-retry-pushback-ms"

  # The google.rpc.Code names, by number.
  CODE_NAMES = %w[
    OK CANCELLED UNKNOWN INVALID_ARGUMENT DEADLINE_EXCEEDED NOT_FOUND ALREADY_EXISTS
    PERMISSION_DENIED RESOURCE_EXHAUSTED FAILED_PRECONDITION ABORTED OUT_OF_RANGE
    UNIMPLEMENTED INTERNAL UNAVAILABLE DATA_LOSS UNAUTHENTICATED
  ].freeze

  # What a client needs to decide about a failure: what it was, and whether
  # and when to retry it. Every field comes from the google.rpc.Status and
  # its ErrorInfo and RetryInfo details, never from the message.
  #
  # code:: the code's name, e.g. "NOT_FOUND"
  # code_number:: the code's number
  # message:: the status message (for people; never parse it)
  # reason, domain, metadata:: ErrorInfo's; nil, nil and {} without one
  # retryable:: true if and only if the status carries RetryInfo
  # delay:: RetryInfo's delay in seconds (a Float); nil when not retryable
  # pushback:: the grpc-retry-pushback-ms trailer of an RPC error; nil for a
  #            status read from a response, or when the server sent none
  # details:: every detail, unpacked to its message (the Any when unknown)
  # status:: the Google::Rpc::Status itself
  Classification = Struct.new(:code, :code_number, :message, :reason, :domain, :metadata,
                              :retryable, :delay, :pushback, :details, :status, keyword_init: true) do
    alias_method :retryable?, :retryable

    # RetryInfo's delay in whole milliseconds (truncated, as the pushback
    # trailer has it), or nil.
    def delay_ms
      ri = detail(Google::Rpc::RetryInfo)
      d = ri&.retry_delay
      return (retryable ? 0 : nil) if d.nil?

      d.seconds * 1000 + d.nanos / 1_000_000
    end

    # The first detail of a message class, e.g.
    # c.detail(Google::Rpc::BadRequest), or nil.
    def detail(klass)
      details.find { |d| d.is_a?(klass) }
    end
  end

  class << self
    # Classifies a Google::Rpc::Status found in a response: a Run's
    # failure, a tool call's error. A status without details classifies by
    # its code alone; nil is OK.
    def classify_status(status)
      status ||= Google::Rpc::Status.new
      c = Classification.new(code: code_name(status.code), code_number: status.code, message: status.message,
                             reason: nil, domain: nil, metadata: {}, retryable: false, delay: nil,
                             pushback: nil, details: [], status: status)
      status.details.each { |any| add_detail(c, unpack(any)) }
      c
    end

    # Classifies an error a gRPC call raised: a GRPC::BadStatus (from its
    # grpc-status-details-bin and grpc-retry-pushback-ms trailers), a
    # Runsvc::Error (its classification), or any other exception (UNKNOWN).
    # An RPC error without the details trailer classifies by its code alone.
    def classify(error)
      case error
      when Runsvc::Error then error.classification
      when GRPC::BadStatus then classify_bad_status(error)
      else
        classify_status(Google::Rpc::Status.new(code: GRPC::Core::StatusCodes::UNKNOWN, message: error.to_s))
      end
    end

    # The name of a status code, as google.rpc.Code spells it.
    def code_name(number)
      CODE_NAMES.fetch(number) { "CODE_#{number}" }
    end

    private

    def classify_bad_status(error)
      md = error.metadata || {}
      c = classify_status(status_of(error, md))
      pushback = md[PUSHBACK_TRAILER]
      c.pushback = Array(pushback).join(",") unless pushback.nil?
      c
    end

    def status_of(error, metadata)
      raw = Array(metadata[STATUS_DETAILS_TRAILER]).first
      if raw
        begin
          return Google::Rpc::Status.decode(raw)
        rescue Google::Protobuf::ParseError
          nil
        end
      end
      Google::Rpc::Status.new(code: error.code, message: error.details.to_s)
    end

    def add_detail(classification, detail)
      classification.details << detail
      case detail
      when Google::Rpc::ErrorInfo
        return unless classification.reason.nil?

        classification.reason = detail.reason
        classification.domain = detail.domain
        classification.metadata = detail.metadata.to_h
      when Google::Rpc::RetryInfo
        classification.retryable = true
        d = detail.retry_delay
        classification.delay = d ? d.seconds + d.nanos / 1e9 : 0.0
      end
    end

    # Unpacks an Any whose type this process knows, else returns it.
    def unpack(any)
      name = any.type_name
      desc = Google::Protobuf::DescriptorPool.generated_pool.lookup(name)
      return any unless desc.is_a?(Google::Protobuf::Descriptor)

      any.unpack(desc.msgclass) || any
    rescue Google::Protobuf::ParseError
      any
    end
  end
end
