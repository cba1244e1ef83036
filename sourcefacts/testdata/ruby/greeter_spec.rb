require 'rspec'

describe 'Greeter' do
  it 'greets' do
    expect(1).to eq(1)
  end
end
