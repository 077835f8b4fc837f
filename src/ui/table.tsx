import type { Child } from "hono/jsx";

// DESIGN 16b, 25: a list as a table — a caption that names it, column headers with `scope`, one
// row per item — so a screen reader says each cell with its column (WCAG 1.3.1).

export function DataTable<Row>(props: { caption: string; columns: { header: string; cell: (row: Row) => Child }[]; rows: Row[]; empty: string }) {
  if (props.rows.length === 0) return <p>{props.empty}</p>;
  return (
    <div class="table-scroll">
      <table>
        <caption>{props.caption}</caption>
        <thead>
          <tr>
            {props.columns.map((column) => (
              <th scope="col">{column.header}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {props.rows.map((row) => (
            <tr>
              {props.columns.map((column) => (
                <td>{column.cell(row) as never}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
