"""The COMP30024 (2016) course player: one Java class (``comp30024``) filled from
``comp30024_template.java`` with a champion's weights."""
