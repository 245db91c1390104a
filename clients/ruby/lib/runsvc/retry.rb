# frozen_string_literal: true

require "runsvc/error"

module Runsvc
  # How many times with_retry calls the block at most, by default.
  DEFAULT_MAX_ATTEMPTS = 5

  class << self
    # Calls the block until it returns, retrying a runsvc error that says a
    # retry may succeed (RetryInfo) after RetryInfo's delay. It gives up and
    # raises the last error once the error is not retryable, comes from
    # another domain (a proxy, another service), attempts run out, or
    # waiting would pass the deadline (seconds from now; nil: none).
    #
    # The block gets the seconds left until the deadline (nil without
    # one): pass them on as the call's deadline.
    #
    #   run = Runsvc.with_retry(deadline: 30) do |left|
    #     client.run.start_run({spec: "triage", input: "hi"}, deadline: left)
    #   end
    def with_retry(deadline: nil, max_attempts: DEFAULT_MAX_ATTEMPTS, domain: DEFAULT_DOMAIN,
                   sleep: Kernel.method(:sleep), clock: -> { Process.clock_gettime(Process::CLOCK_MONOTONIC) },
                   on_retry: nil)
      deadline_at = deadline && clock.call + deadline
      attempt = 0
      loop do
        attempt += 1
        left = deadline_at && [deadline_at - clock.call, 0.0].max
        begin
          return yield(left)
        rescue Runsvc::Error, GRPC::BadStatus => e
          delay = retry_delay(classify(e), attempt, max_attempts, domain, deadline_at, clock.call)
          raise if delay.nil?

          on_retry&.call(attempt, e, delay)
          sleep.call(delay)
        end
      end
    end

    private

    # The delay before the next attempt, or nil to give up.
    def retry_delay(classification, attempt, max_attempts, domain, deadline_at, now)
      return nil unless classification.retryable && classification.domain == domain
      return nil if attempt >= max_attempts

      delay = classification.delay || 0.0
      return nil if deadline_at && now + delay > deadline_at

      delay
    end
  end
end
