import React from 'react';

interface Props {
  title: string;
}

export function View(props: Props) {
  return <div className="view">{format(props.title)}</div>;
}

export class Panel extends React.Component<Props> {
  render() {
    return <View title={this.props.title} />;
  }
}
