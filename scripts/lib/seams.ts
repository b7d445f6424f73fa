/**
 * The seam check the world's tests and bench share: every vertex two neighbouring grounds of a
 * grid share (grounds[row][column], as `TerrainErosionWorld` takes them) must have the same height
 * and the same normal on both. Works on any vertex data (the CPU copies, or GPU buffers read back).
 */

/** What the check needs of a ground: its grid (Babylon's `GroundMesh` has these). */
export interface SeamGround {
    readonly name: string;
    readonly subdivisionsX: number;
    readonly subdivisionsY: number;
}

/** A ground's vertex data: xyz per vertex, row-major. */
export interface SeamData {
    readonly positions: ArrayLike<number>;
    readonly normals: ArrayLike<number>;
}

/** Every shared vertex whose y or normal differs between its two grounds, described. */
export function seamMismatches<G extends SeamGround>(grounds: readonly (readonly G[])[], data: (ground: G) => SeamData): string[] {
    const problems: string[] = [];
    const compare = (a: G, ia: number, b: G, ib: number) => {
        const [da, db] = [data(a), data(b)];
        // Positions: y only (x and z are each ground's local frame); normals: all three.
        if (da.positions[ia * 3 + 1] !== db.positions[ib * 3 + 1]) problems.push(`${a.name}/${b.name} height ${da.positions[ia * 3 + 1]} vs ${db.positions[ib * 3 + 1]}`);
        for (let k = 0; k < 3; k++) {
            if (da.normals[ia * 3 + k] !== db.normals[ib * 3 + k]) problems.push(`${a.name}/${b.name} normal[${k}] ${da.normals[ia * 3 + k]} vs ${db.normals[ib * 3 + k]}`);
        }
    };
    grounds.forEach((row, r) =>
        row.forEach((ground, c) => {
            const width = ground.subdivisionsX + 1;
            const depth = ground.subdivisionsY + 1;
            const east = row[c + 1];
            if (east) for (let y = 0; y < depth; y++) compare(ground, y * width + width - 1, east, y * (east.subdivisionsX + 1));
            const south = grounds[r + 1]?.[c];
            if (south) for (let x = 0; x < width; x++) compare(ground, (depth - 1) * width + x, south, x);
        })
    );
    return problems;
}
