package dev.sessionstore.benchmarks.sidebyside;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.DoubleSummaryStatistics;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import javax.xml.transform.OutputKeys;
import javax.xml.transform.Transformer;
import javax.xml.transform.TransformerException;
import javax.xml.transform.TransformerFactory;
import javax.xml.transform.dom.DOMSource;
import javax.xml.transform.stream.StreamResult;
import org.w3c.dom.Document;
import org.w3c.dom.Element;

/**
 * Draws the chart as an SVG document, built with the JDK's DOM and written by its XML transformer: one panel per
 * sweep side by side, throughput (on a linear axis from 0, or a logarithmic one by decades) against the swept values
 * at even steps, the library as a solid line and its raw twin dashed.
 */
final class Chart {

  static final String SVG = "http://www.w3.org/2000/svg";
  static final String LIBRARY_CLASS = "library";
  static final String BASELINE_CLASS = "raw-twin";
  private static final int PANEL_WIDTH = 460;
  private static final int HEIGHT = 340;
  private static final int LEFT = 70;
  private static final int RIGHT = 20;
  private static final int TOP = 50;
  private static final int BOTTOM = 60;
  private static final int TICKS = 5;
  private static final String LIBRARY_COLOR = "#1f5fbf";
  private static final String BASELINE_COLOR = "#d9661f";

  private Chart() {
  }

  static void write(Path file, List<Panel> panels) throws IOException {
    try {
      Document svg = DocumentBuilderFactory.newInstance().newDocumentBuilder().newDocument();
      Element root = svg.createElementNS(SVG, "svg");
      int width = PANEL_WIDTH * Math.max(1, panels.size());
      root.setAttribute("width", String.valueOf(width));
      root.setAttribute("height", String.valueOf(HEIGHT));
      root.setAttribute("viewBox", "0 0 " + width + " " + HEIGHT);
      root.setAttribute("font-family", "sans-serif");
      root.setAttribute("font-size", "12");
      svg.appendChild(root);
      add(svg, root, "rect", "width", width, "height", HEIGHT, "fill", "white");
      for (int i = 0; i < panels.size(); i++) {
        drawPanel(svg, root, panels.get(i), i * PANEL_WIDTH);
      }
      Transformer transformer = TransformerFactory.newInstance().newTransformer();
      transformer.setOutputProperty(OutputKeys.INDENT, "yes");
      transformer.setOutputProperty("{http://xml.apache.org/xslt}indent-amount", "1");
      try (OutputStream out = Files.newOutputStream(file)) {
        transformer.transform(new DOMSource(svg), new StreamResult(out));
      }
    } catch (ParserConfigurationException | TransformerException e) {
      throw new IOException("the chart could not be written to " + file, e);
    }
  }

  private static void drawPanel(Document svg, Element root, Panel panel, int offset) {
    Element group = add(svg, root, "g", "transform", "translate(" + offset + ",0)");
    int plotWidth = PANEL_WIDTH - LEFT - RIGHT;
    int plotHeight = HEIGHT - TOP - BOTTOM;
    Axis axis = Axis.of(panel, plotHeight);
    text(svg, group, panel.title(), PANEL_WIDTH / 2.0, 20, "middle", "bold");
    for (double value : axis.ticks()) {
      double y = axis.y(value);
      add(svg, group, "line", "x1", LEFT, "x2", LEFT + plotWidth, "y1", y, "y2", y, "stroke", "#dddddd");
      text(svg, group, Numbers.round(value), LEFT - 6, y + 4, "end", null);
    }
    double middle = TOP + plotHeight / 2.0;
    text(svg, group, panel.unit() + " per second" + (panel.logScale() ? " (log scale)" : ""), 14, middle, "middle",
        null).setAttribute("transform", "rotate(-90 14 " + middle + ")");
    int count = panel.points().size();
    for (int i = 0; i < count; i++) {
      text(svg, group, String.valueOf(panel.points().get(i)), x(i, count, plotWidth), TOP + plotHeight + 18,
          "middle", null);
    }
    text(svg, group, panel.xLabel(), LEFT + plotWidth / 2.0, HEIGHT - 22, "middle", null);
    add(svg, group, "line", "x1", LEFT, "x2", LEFT, "y1", TOP, "y2", TOP + plotHeight, "stroke", "#444444");
    add(svg, group, "line", "x1", LEFT, "x2", LEFT + plotWidth, "y1", TOP + plotHeight, "y2", TOP + plotHeight,
        "stroke", "#444444");
    series(svg, group, panel.baseline(), axis, plotWidth, BASELINE_CLASS, BASELINE_COLOR, "6 4");
    series(svg, group, panel.library(), axis, plotWidth, LIBRARY_CLASS, LIBRARY_COLOR, null);
    legend(svg, group, LEFT + 10, TOP - 14, LIBRARY_COLOR, null, "library");
    legend(svg, group, LEFT + 110, TOP - 14, BASELINE_COLOR, "6 4", "raw-JDBC twin");
  }

  private static void series(Document svg, Element group, List<Double> values, Axis axis, int plotWidth,
      String cssClass, String color, String dash) {
    StringBuilder points = new StringBuilder();
    Element line = add(svg, group, "polyline", "class", cssClass, "fill", "none", "stroke", color,
        "stroke-width", 2);
    if (dash != null) {
      line.setAttribute("stroke-dasharray", dash);
    }
    for (int i = 0; i < values.size(); i++) {
      double x = x(i, values.size(), plotWidth);
      double y = axis.y(values.get(i));
      points.append(i == 0 ? "" : " ").append(number(x)).append(',').append(number(y));
      add(svg, group, "circle", "class", cssClass, "cx", x, "cy", y, "r", 3.5, "fill", color);
    }
    line.setAttribute("points", points.toString());
  }

  private static void legend(Document svg, Element group, double x, double y, String color, String dash,
      String label) {
    Element line = add(svg, group, "line", "x1", x, "x2", x + 24, "y1", y, "y2", y, "stroke", color,
        "stroke-width", 2);
    if (dash != null) {
      line.setAttribute("stroke-dasharray", dash);
    }
    text(svg, group, label, x + 30, y + 4, "start", null);
  }

  private static double x(int index, int count, int plotWidth) {
    return LEFT + (count == 1 ? plotWidth / 2.0 : 20 + (plotWidth - 40) * index / (double) (count - 1));
  }

  private static Element text(Document svg, Element parent, String content, double x, double y, String anchor,
      String weight) {
    Element text = add(svg, parent, "text", "x", x, "y", y, "text-anchor", anchor);
    if (weight != null) {
      text.setAttribute("font-weight", weight);
    }
    text.setTextContent(content);
    return text;
  }

  /** Adds an SVG element with attributes given as name, value pairs; numbers are written with two decimals. */
  private static Element add(Document svg, Element parent, String name, Object... attributes) {
    Element element = svg.createElementNS(SVG, name);
    for (int i = 0; i < attributes.length; i += 2) {
      Object value = attributes[i + 1];
      element.setAttribute((String) attributes[i], value instanceof Double d ? number(d) : String.valueOf(value));
    }
    parent.appendChild(element);
    return element;
  }

  private static String number(double value) {
    return String.format(Locale.ROOT, "%.2f", value);
  }

  /** The throughput axis of a panel: its range, its ticks and where a value goes. */
  private record Axis(double bottom, double top, boolean logScale, int plotHeight) {

    static Axis of(Panel panel, int plotHeight) {
      DoubleSummaryStatistics values = Stream.concat(panel.library().stream(), panel.baseline().stream())
          .mapToDouble(Double::doubleValue).filter(value -> Double.isFinite(value) && value > 0)
          .summaryStatistics();
      double max = values.getCount() == 0 ? 1 : values.getMax();
      if (!panel.logScale()) {
        return new Axis(0, niceCeiling(max), false, plotHeight);
      }
      double bottom = Math.pow(10, Math.floor(Math.log10(values.getCount() == 0 ? 1 : values.getMin())));
      double top = Math.max(bottom * 10, Math.pow(10, Math.ceil(Math.log10(max))));
      return new Axis(bottom, top, true, plotHeight);
    }

    /** Every decade on a logarithmic axis; {@value #TICKS} even steps on a linear one. */
    List<Double> ticks() {
      List<Double> ticks = new ArrayList<>();
      if (logScale) {
        for (double value = bottom; value <= top * 1.001; value *= 10) {
          ticks.add(value);
        }
      } else {
        for (int t = 0; t <= TICKS; t++) {
          ticks.add(top * t / TICKS);
        }
      }
      return ticks;
    }

    /** The y coordinate of {@code value}; a value off the axis (or not a number) sits at its bottom. */
    double y(double value) {
      double share;
      if (!Double.isFinite(value) || value <= bottom) {
        share = 0;
      } else if (logScale) {
        share = Math.log10(value / bottom) / Math.log10(top / bottom);
      } else {
        share = value / top;
      }
      return TOP + plotHeight - plotHeight * share;
    }

    /** The smallest of 1, 2 or 5 times a power of ten at or above {@code value}. */
    private static double niceCeiling(double value) {
      double power = Math.pow(10, Math.floor(Math.log10(value)));
      for (double step : new double[] {1, 2, 5}) {
        if (step * power >= value) {
          return step * power;
        }
      }
      return 10 * power;
    }
  }
}
