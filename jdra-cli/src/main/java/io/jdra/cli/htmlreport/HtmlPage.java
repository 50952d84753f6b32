package io.jdra.cli.htmlreport;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.List;

/**
 * A self-contained HTML report built top to bottom: headings, paragraphs, preformatted text, tables
 * and {@link LineChart}s. {@link #writeTo} writes {@code DIR/index.html} (through a temporary file,
 * so a reader never sees half a report). Not thread-safe.
 */
public final class HtmlPage {
  private static final String CSS =
      "body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:24px;"
          + "color:#222;max-width:900px}h1{font-size:22px}h2{font-size:17px;margin-top:28px;"
          + "border-bottom:1px solid #ddd}table{border-collapse:collapse;font-size:13px;"
          + "margin:8px 0}td,th{border:1px solid #ccc;padding:3px 8px;text-align:left;"
          + "vertical-align:top}th{background:#f4f4f4}td.n{text-align:right;"
          + "font-variant-numeric:tabular-nums}pre{background:#f7f7f7;padding:8px;font-size:12px;"
          + "white-space:pre-wrap}figure{margin:12px 0}figcaption{font-weight:600;font-size:14px;"
          + "margin-bottom:4px}p.note{color:#555;font-size:13px}";

  private final String title;
  private final StringBuilder body = new StringBuilder();

  public HtmlPage(String title) {
    this.title = title;
    body.append("<h1>").append(Html.esc(title)).append("</h1>\n");
  }

  public HtmlPage heading(String text) {
    body.append("<h2>").append(Html.esc(text)).append("</h2>\n");
    return this;
  }

  public HtmlPage paragraph(String text) {
    body.append("<p>").append(Html.esc(text)).append("</p>\n");
    return this;
  }

  public HtmlPage note(String text) {
    body.append("<p class=\"note\">").append(Html.esc(text)).append("</p>\n");
    return this;
  }

  public HtmlPage pre(String text) {
    body.append("<pre>").append(Html.esc(text)).append("</pre>\n");
    return this;
  }

  /**
   * A table; cells that look like numbers are right-aligned.
   *
   * @param header column names
   * @param rows cells, each row as long as the header
   */
  public HtmlPage table(List<String> header, List<List<String>> rows) {
    body.append("<table><thead><tr>");
    for (String h : header) {
      body.append("<th>").append(Html.esc(h)).append("</th>");
    }
    body.append("</tr></thead><tbody>\n");
    for (List<String> r : rows) {
      body.append("<tr>");
      for (String c : r) {
        boolean num = c.matches("[-+]?[0-9][0-9.,]*( ?[%a-zµ]{0,3})?");
        body.append(num ? "<td class=\"n\">" : "<td>").append(Html.esc(c)).append("</td>");
      }
      body.append("</tr>\n");
    }
    body.append("</tbody></table>\n");
    return this;
  }

  public HtmlPage chart(LineChart chart) {
    body.append("<figure><figcaption>")
        .append(Html.esc(chart.title()))
        .append("</figcaption>")
        .append(chart.svg())
        .append("</figure>\n");
    return this;
  }

  /** The whole document. */
  public String html() {
    return "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>"
        + Html.esc(title)
        + "</title><style>"
        + CSS
        + "</style></head><body>\n"
        + body
        + "</body></html>\n";
  }

  /** Writes {@code dir/index.html}, creating {@code dir}; returns the file. */
  public Path writeTo(Path dir) throws IOException {
    Files.createDirectories(dir);
    Path file = dir.resolve("index.html");
    // Not Files.createTempFile: it makes the file owner-only (0600), so a report meant to be
    // opened, copied or served would not be readable by others as any other file the user writes.
    // A plain create takes the permissions the umask gives; the name is unique to this write.
    Path tmp =
        dir.resolve(
            ".index." + ProcessHandle.current().pid() + "." + System.nanoTime() + ".html.tmp");
    try {
      Files.writeString(
          tmp,
          html(),
          StandardCharsets.UTF_8,
          StandardOpenOption.CREATE_NEW,
          StandardOpenOption.WRITE);
      Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } finally {
      Files.deleteIfExists(tmp);
    }
    return file;
  }
}
