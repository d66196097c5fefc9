"""Reading run directories and writing reports: statistics, figures, Markdown and HTML."""
