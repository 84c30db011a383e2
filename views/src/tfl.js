// TfL's colours, shared by the TfL views: each line's own (by id and by name), then each
// mode's. The Overground's six lines have their own colours since November 2024.
const LINES = {
  bakerloo: "#B36305",
  central: "#E32017",
  circle: "#FFD300",
  district: "#00782A",
  "hammersmith-city": "#F3A9BB",
  "hammersmith & city": "#F3A9BB",
  jubilee: "#A0A5A9",
  metropolitan: "#9B0056",
  northern: "#000000",
  piccadilly: "#003688",
  victoria: "#0098D4",
  "waterloo-city": "#95CDBA",
  "waterloo & city": "#95CDBA",
  elizabeth: "#6950A1",
  "elizabeth line": "#6950A1",
  liberty: "#61686B",
  lioness: "#F1B41C",
  mildmay: "#437EC1",
  suffragette: "#39B97A",
  weaver: "#972861",
  windrush: "#DC241F",
  "london overground": "#EE7C0E",
  dlr: "#00A4A7",
  tram: "#84B817",
};
const MODES = {
  tube: "#0019A8",
  overground: "#EE7C0E",
  "elizabeth-line": "#6950A1",
  dlr: "#00A4A7",
  tram: "#84B817",
  bus: "#DC241F",
  "national-rail": "#1C3F94",
  "river-bus": "#039BE5",
  "cable-car": "#E21836",
  walking: "#8A8F98",
};

/** The colour of a line (its id or name), else of its mode, else grey. */
export function tflColour(line, mode) {
  return LINES[(line ?? "").toLowerCase()] ?? MODES[(mode ?? "").toLowerCase()] ?? "#5A6270";
}

/** A badge's style for a line: its colour, and text that stays readable on it (dark on
 * Circle yellow or Waterloo & City green, white on the rest). */
export function tflBadge(line, mode) {
  const colour = tflColour(line, mode);
  const [r, g, b] = [1, 3, 5].map((at) => parseInt(colour.slice(at, at + 2), 16) / 255);
  const light = 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.6;
  return `--leg:${colour};color:${light ? "#111" : "#fff"}`;
}
