/** Input reading and output printing for {@code jdra allocate}. */
package io.jdra.cli.allocate;
