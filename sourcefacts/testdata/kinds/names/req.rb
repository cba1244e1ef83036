class Request
  def bad_request?
    status == 400
  end

  def cache!
    store
  end

  def name=(value)
    @name = value
  end

  def check
    cache! if bad_request?
    self.name = "x"
    self.timeout = 5
  end

  attr_accessor :timeout
  alias_method :bad?, :bad_request?
end
