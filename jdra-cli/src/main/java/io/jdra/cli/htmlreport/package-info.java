/**
 * A small writer of self-contained HTML reports: one file, inline CSS and inline SVG line charts,
 * no script and nothing fetched from the network, so a report opens anywhere (a browser, a CI
 * artifact viewer) exactly as written. {@link io.jdra.cli.htmlreport.HtmlPage} collects headings,
 * paragraphs, tables and {@link io.jdra.cli.htmlreport.LineChart}s and writes {@code index.html}.
 */
package io.jdra.cli.htmlreport;
